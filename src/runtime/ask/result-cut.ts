/**
 * A tool's `max_result_chars` (issue #25 §5): the model sees at most N characters of a
 * result — of the JSON text the provider message carries — followed by a marker saying it was
 * cut and how much of it is shown. Characters are Unicode code points (a character outside
 * the Basic Multilingual Plane counts once and is never split). Only the message to the model
 * is cut: the program's code, the journal and the trace keep the whole value.
 *
 *   {"rows":[{"id":1,"na… [cut: 20 of 5678 characters shown]
 */
import type { ToolResult } from "../providers/provider-types";

/** The marker after the shown characters (docs/language/tools.md "max_result_chars"). */
export const cutMarker = (shown: number, total: number): string => `… [cut: ${shown} of ${total} characters shown]`;

/** The first `limit` code points of `text` and the count of all of them, or undefined when it fits. */
function firstCodePoints(text: string, limit: number): { head: string; total: number } | undefined {
  // Fewer UTF-16 units than the limit: fewer code points too.
  if (text.length <= limit) return undefined;
  let total = 0;
  let end = 0;
  for (const ch of text) {
    if (total < limit) end += ch.length;
    total++;
  }
  return total <= limit ? undefined : { head: text.slice(0, end), total };
}

/** The result as the model gets it: `shown` set when the tool's limit cut its JSON. */
export function cutForModel(result: ToolResult, limit: number | undefined): ToolResult {
  if (limit === undefined || result.isError) return result;
  const text = JSON.stringify(result.content) ?? "null";
  const cut = firstCodePoints(text, limit);
  return cut === undefined ? result : { ...result, shown: cut.head + cutMarker(limit, cut.total) };
}

/**
 * The texts the runtime itself adds to a conversation. The user's prompt goes first and
 * unchanged; the only other text is the retry feedback (spec §7 "telling the model what was
 * wrong"), which also restates the expected schema — an answer given without tool calls was
 * not format-enforced by the provider, so the model may not have seen it.
 */
import type { ResponseFormat } from "../providers/provider-types";

export function retryFeedback(reason: string, format: ResponseFormat): string {
  return (
    `Your previous answer was invalid: ${reason}\n` +
    `Answer again with only a JSON value that matches this JSON Schema, and nothing else:\n` +
    JSON.stringify(format.schema)
  );
}

export const TOOLS_AFTER_LIMIT =
  "The model kept calling tools after the tool call limit was reached and tool choice was set to none.";

/**
 * What each protocol version a client may speak can hold. A session answers in the version
 * it agreed on at `initialize`, so an older client never gets fields its version does not
 * define: tool `annotations` came in 2025-03-26 (with the title among them); `title`,
 * `outputSchema`, `_meta` on tools and `structuredContent` on results in 2025-06-18; a tool's
 * `execution` (task support) in 2025-11-25.
 * The text content — the same JSON — is there in every version.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { ServedTool } from "./served-tools";

/** The version a session speaks: the one its client asked for when supported, else the latest (as the SDK answers). */
export const agreedVersion = (requested: unknown): string =>
  typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;

/** Versions are dates: they compare as text. */
const atLeast = (version: string, since: string) => version >= since;

export const hasStructuredContent = (version: string) => atLeast(version, "2025-06-18");

/** Progress notifications carry a `message` since 2025-03-26. */
export const hasProgressMessage = (version: string) => atLeast(version, "2025-03-26");

/** One `tools/list` entry as `version` defines a tool. */
export function toolEntry(t: ServedTool, version: string): Record<string, unknown> {
  const entry: Record<string, unknown> = { name: t.name };
  if (t.description !== undefined) entry.description = t.description;
  entry.inputSchema = t.inputSchema;
  if (atLeast(version, "2025-06-18")) {
    if (t.title !== undefined) entry.title = t.title;
    if (t.outputSchema !== undefined) entry.outputSchema = t.outputSchema;
    if (t.annotations !== undefined) entry.annotations = t.annotations;
    if (t.meta !== undefined) entry._meta = t.meta;
    // An agent method may run many model turns: it may be called as a task (served-tasks.ts).
    if (atLeast(version, "2025-11-25") && t.kind === "method") entry.execution = { taskSupport: "optional" };
  } else if (atLeast(version, "2025-03-26")) {
    // 2025-03-26 had no tool `title`: its annotations held one.
    entry.annotations = { ...(t.title === undefined ? {} : { title: t.title }), ...t.annotations };
  }
  return entry;
}

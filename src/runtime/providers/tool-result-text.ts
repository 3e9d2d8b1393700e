/**
 * The text a provider message carries for one tool result: the result's JSON, or — when the
 * tool's `max_result_chars` cut it — what the model is shown instead (`ToolResult.shown`).
 * One helper so that every wire format sends the same characters.
 */
import type { ToolResult } from "./provider-types";

export const toolResultText = (r: ToolResult): string => r.shown ?? JSON.stringify(r.content);

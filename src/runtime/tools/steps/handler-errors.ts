/**
 * What a handler's throw becomes (spec §9 "Errors"):
 * - a LumaError (a handler's LumaToolError) passes through unchanged — its own code,
 *   message, retryable and details — after, when the tool declares `error: Schema`, its
 *   `{code, message, retryable, details}` is validated against that schema
 *   (mismatch → TOOL_ERROR_INVALID, not retryable);
 * - an error-shaped object from another copy of the module (a string `code`, a boolean
 *   `retryable`) is treated the same, carried into a LumaError with the same fields;
 * - a refused `process.exit()` (and the like, `base/exit-guard.ts`) → TOOL_HANDLER_ERROR
 *   naming the tool and the call;
 * - anything else → TOOL_HANDLER_ERROR, retryable false, with the thrown error's message
 *   (a plain object's string `message` too) and the handler's file:line (handler-location.ts).
 *
 * `details` must be JSON data (schema/json-data.ts), with or without an error schema: it
 * reaches `catch` variables, traces and the model, which print or send it as JSON. Details
 * that are not (a BigInt, a cycle…) make the error TOOL_ERROR_INVALID, not retryable,
 * naming the path and keeping the thrown code — the same rule as for outputs, rather than
 * a sanitized copy that would hide the bug.
 */
import { LumaError } from "../../../diagnostics/luma-error";
import { jsonDataIssue } from "../../../schema/json-data";
import type { PipelineRuntime } from "./step";
import type { ToolPlan } from "./tool-plan";
import { toolErrors } from "./tool-errors";
import { isExitAttempt } from "../../base/exit-guard";
import { isRunEnding } from "../../base/run-ending-error";

interface ErrorShape {
  code: string;
  message: string;
  retryable: boolean;
  details?: unknown;
}

const isErrorShape = (e: unknown): e is ErrorShape =>
  e !== null && typeof e === "object" && typeof (e as ErrorShape).code === "string" && typeof (e as ErrorShape).retryable === "boolean";

/** A plain object thrown with a string `message` (`throw { message: "…" }`) keeps it. */
const messageOf = (e: unknown): string =>
  e instanceof Error
    ? e.message
    : typeof e === "string"
      ? e
      : e !== null && typeof e === "object" && typeof (e as { message?: unknown }).message === "string"
        ? (e as { message: string }).message
        : "Tool handler failed.";

export const toToolError = (rt: PipelineRuntime, tool: ToolPlan, thrown: unknown): LumaError => {
  // An error that ends the run (a `luma test` stub past its answers) is no tool error.
  if (isRunEnding(thrown)) return thrown;
  if (isExitAttempt(thrown)) return toolErrors.handlerExit(tool.name, thrown.call);
  if (!(thrown instanceof LumaError) && !isErrorShape(thrown)) return toolErrors.handlerError(messageOf(thrown), thrown);
  if (thrown.details !== undefined) {
    const notJson = jsonDataIssue(thrown.details, `${tool.errorRoot}.details`);
    if (notJson !== undefined) return toolErrors.errorDetailsNotJson(tool.name, notJson.message, thrown.code);
  }
  if (tool.errorTarget !== undefined) {
    const shape: Record<string, unknown> = { code: thrown.code, message: thrown.message, retryable: thrown.retryable };
    if (thrown.details !== undefined) shape.details = thrown.details;
    const r = rt.schemas.validate(tool.errorTarget, shape, "output", tool.errorRoot);
    if (!r.ok) return toolErrors.errorInvalid(tool.name, r.hard.map((i) => i.message), thrown.code);
  }
  if (thrown instanceof LumaError) return thrown;
  return new LumaError({ code: thrown.code, message: String(thrown.message), retryable: thrown.retryable, details: thrown.details });
};

/**
 * The errors an `ask` raises itself, located at the ask (`… at app.luma:7:5`). Errors that
 * come from a tool keep their message byte for byte (some are the spec's exact texts).
 */
import { LumaError, runtimeError } from "../../diagnostics/luma-error";

export const askErrors = {
  outputInvalid: (target: string, model: string, attempts: number, reason: string, location: string): LumaError =>
    runtimeError(
      "ASK_OUTPUT_INVALID",
      `The answer of model '${model}' to ask -> ${target} was invalid` +
        `${attempts > 1 ? ` after ${attempts} attempts` : ""}: ${reason.replace(/\.$/, "")} at ${location}`,
      { details: { attempts } },
    ),
  noModel: (agent: string, location: string): LumaError =>
    runtimeError("RUNTIME_ERROR", `Agent '${agent}' has no model to ask at ${location}`),
};

/** A provider error with the ask's location added; code, retryable and details kept. */
export const locatedAt = (e: LumaError, location: string): LumaError =>
  new LumaError({ code: e.code, message: `${e.message.replace(/\.$/, "")} at ${location}`, retryable: e.retryable, details: e.details, phase: e.phase, catalogCode: e.catalogCode });

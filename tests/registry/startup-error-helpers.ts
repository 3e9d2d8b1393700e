/** Test helpers: run something that must fail at startup and hand back the LumaError. */
import { expect } from "bun:test";
import { LumaError } from "../../src/diagnostics/luma-error";

export async function startupFailure(run: () => unknown): Promise<LumaError> {
  let caught: unknown;
  try {
    await run();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(LumaError);
  const error = caught as LumaError;
  expect(error.phase).toBe("startup");
  // A clear one-line cause, never a stack trace.
  expect(error.message).not.toMatch(/\n\s+at /);
  return error;
}

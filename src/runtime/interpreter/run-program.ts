/**
 * The interpreter's entry point: runs a checked program's top-level statements in order,
 * in their own scope (with `args`), against a host that provides schemas, the tool
 * pipeline, output streams and source text.
 *
 * The interpreter is a tree walker over the AST in two flavours: a synchronous one for
 * everything that cannot suspend and an asynchronous one for tool calls and user function
 * calls (see `scope-analysis.ts`). Semantics are documented beside the code that implements
 * them: values/truthiness/equality in `values.ts`, operators in `operators.ts`, statements
 * and function values in `exec-sync.ts`, calls and agents in `calls.ts`, builtins in
 * `builtins.ts`, errors in `runtime-errors.ts`.
 *
 * A top-level `return` ends the script; `exit(0)` ends it as a success too (any other
 * status is the run's failure, `ProgramExit`). Every failure is a LumaError; nothing
 * else escapes.
 */
import type { Program } from "../../syntax/ast";
import { execBlockAsync } from "./exec-async";
import { asLumaError } from "./runtime-errors";
import { isProgramExit } from "../base/run-ending-error";
import { createFrame, createRuntime, type InterpreterHost } from "./runtime-context";
import { topLevelScope } from "../journal/step-scope";

export type { InterpreterHost } from "./runtime-context";
export { MAX_CALL_DEPTH } from "./runtime-context";

export async function runProgram(program: Program, host: InterpreterHost): Promise<void> {
  const rt = createRuntime(program, host);
  const frame = createFrame(rt, program.body, topLevelScope());
  frame.vars.set("args", host.args.slice());
  // An eval's block (luma eval) reads its dataset line as `case` (language/name-resolution.ts).
  if (host.evalCase) frame.vars.set("case", host.evalCase.value);
  try {
    await execBlockAsync(program.body, frame);
  } catch (e) {
    if (isProgramExit(e) && e.exitCode === 0) return;
    throw asLumaError(e, rt.sourceOf, program.span);
  }
}

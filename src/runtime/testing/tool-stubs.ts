/**
 * `mock tool name [answers]` in a test (issue #28 §4): the tool's calls are answered in
 * order by the list instead of by its handler. A stub stands where the handler would run
 * (step 10 of the pipeline), so everything around it still runs: input validation, policy
 * and approval, the cache and idempotency (a refused call or an idempotent replay takes no
 * answer), retries (each attempt takes the next answer), output validation of a stubbed
 * output, the trace, and `calls("name")`, which counts stub answers, errors included. A
 * tool stubbed in any test of the file needs no handler module (in a test that does not stub
 * it, a call fails with TOOL_NOT_FOUND); a test can stub some tools and run others for real.
 *
 * Each answer is written with constants only (as a `mock` model's turns):
 *
 *   { output: value }                                           the handler's return value
 *   { error: { code: "…", message: "…", retryable?: bool } }    a tool error (retryable false by default)
 *
 * A call past the list ends the test with a RUNTIME_ERROR naming the stub and the test — a
 * `RunEndingError`, so no `try`/`catch` in the test can hold it. A malformed stub, or one of
 * a name that is no declared tool, fails the test before it runs, naming its file:line:col.
 */
import type { Program, TestDecl, ToolStubSetup } from "../../syntax/ast";
import { RunEndingError } from "../base/run-ending-error";
import { errorAt, locationOf, type SourceOf } from "../interpreter/runtime-errors";
import type { ToolHandler, ToolStubs } from "../tools/registry/registry-types";
import { constant, NotConstant, type Json } from "./mock-turns";

type Answer = { output: Json } | { error: { code: string; message: string; retryable: boolean } };

const SHAPE = 'a tool stub\'s answer is { output: value } or { error: { code: "…", message: "…", retryable?: bool } }';

function answersOf(stub: ToolStubSetup, sourceOf: SourceOf): Answer[] {
  const fail = (message: string, span = stub.answers.span) => errorAt(sourceOf, "RUNTIME_ERROR", `mock tool ${stub.tool}: ${message}`, span);
  let value: Json;
  try {
    value = constant(stub.answers);
  } catch (e) {
    if (!(e instanceof NotConstant)) throw e;
    throw fail("answers are written with constants only (no names, calls or {…} in strings)", e.expr.span);
  }
  if (!Array.isArray(value)) throw fail("the answers are an array, one item per call");
  return value.map((a): Answer => {
    if (typeof a !== "object" || a === null || Array.isArray(a)) throw fail(SHAPE);
    const keys = Object.keys(a);
    if (keys.length === 1 && keys[0] === "output") return { output: a.output };
    const err = keys.length === 1 && keys[0] === "error" ? a.error : undefined;
    if (typeof err !== "object" || err === null || Array.isArray(err)) throw fail(SHAPE);
    const { code, message, retryable = false } = err;
    const extra = Object.keys(err).filter((k) => k !== "code" && k !== "message" && k !== "retryable");
    if (typeof code !== "string" || typeof message !== "string" || typeof retryable !== "boolean" || extra.length > 0) throw fail(SHAPE);
    return { error: { code, message, retryable } };
  });
}

/**
 * The test's stubs as handlers, by tool name (a later stub of the same tool replaces an
 * earlier one), and the tools stubbed anywhere in the file: those need no handler module.
 */
export function toolStubs(program: Program, test: TestDecl, sourceOf: SourceOf): ToolStubs {
  const stubbedInFile = new Set((program.tests ?? []).flatMap((t) => (t.stubs ?? []).map((s) => s.tool)));
  const tools = new Set(program.decls.filter((d) => d.kind === "Tool").map((d) => d.name));
  const stubs = new Map<string, ToolHandler>();
  for (const stub of test.stubs ?? []) {
    if (!tools.has(stub.tool)) throw errorAt(sourceOf, "RUNTIME_ERROR", `mock tool ${stub.tool}: no tool is declared with that name`, stub.toolSpan);
    const answers = answersOf(stub, sourceOf);
    const where = locationOf(sourceOf, stub.span);
    let next = 0;
    stubs.set(stub.tool, () => {
      const answer = answers[next++];
      if (answer === undefined) {
        const message = `mock tool ${stub.tool} (${where}) has ${answers.length} answer(s), and call ${next} of test "${test.name}" is past them: add an answer`;
        throw new RunEndingError({ code: "RUNTIME_ERROR", message }, 1);
      }
      // A thrown error shape becomes the tool error (handler-errors.ts), as a module's LumaToolError does.
      if ("error" in answer) throw { ...answer.error };
      return structuredClone(answer.output);
    });
  }
  return { handlers: stubs, stubbedInFile };
}

/**
 * The asynchronous expression evaluator, for expressions that may suspend: tool calls,
 * user function and agent method calls, and everything that holds one. Sub-expressions
 * that cannot suspend go straight to the synchronous evaluator. Evaluation order is left
 * to right; `and`/`or` short-circuit.
 */
import { locateError } from "../../diagnostics/luma-error";
import type { Expr, Span, StrPart } from "../../syntax/ast";
import { evalCall } from "./calls";
import { evalParallelFor } from "./exec-parallel";
import { execBlockAsync } from "./exec-async";
import { agentToolCaller } from "./agent-tools";
import { askContextOf, assertToolActive } from "./agent-context";
import { evalSync } from "./eval-sync";
import { assertNever } from "../../syntax/assert-never";
import { type BinaryExpr, binaryOp, leftSpine, readField, readIndex, unaryOp } from "./operators";
import { errorAt, locationOf } from "./runtime-errors";
import type { Frame } from "./runtime-context";
import { streamToStdout } from "./stream-output";
import { askInThread, threadOperand } from "./thread-ask";
import type { AskRequest } from "../ask/ask-types";
import type { ToolCallRequest } from "../tools/tool-invoker-types";
import { isTruthy, renderValue, setField, type ObjectValue, type Value } from "./values";

/** Evaluate any expression: synchronously when it cannot suspend. */
export function evalExpr(e: Expr, f: Frame): Value | Promise<Value> {
  return f.rt.analysis.expr(e) ? evalAsync(e, f) : evalSync(e, f);
}

export async function evalAsync(e: Expr, f: Frame): Promise<Value> {
  switch (e.kind) {
    case "Str":
      return evalStrAsync(e.parts, f);
    case "Array": {
      const out = new Array<Value>(e.items.length);
      for (let i = 0; i < e.items.length; i++) out[i] = await evalExpr(e.items[i], f);
      return out;
    }
    case "Object": {
      const obj: ObjectValue = {};
      for (const en of e.entries) setField(obj, en.key, await evalExpr(en.value, f));
      return obj;
    }
    case "Member":
      return readField(f.rt, await evalExpr(e.object, f), e.property, e.span);
    case "Index": {
      const obj = await evalExpr(e.object, f);
      return readIndex(f.rt, obj, await evalExpr(e.index, f), e.span);
    }
    case "Binary": {
      // Folded bottom up, as in the synchronous evaluator; a left side that cannot suspend
      // is one `evalExpr` (the synchronous evaluator folds its own chain).
      const spine = leftSpine(e, (left) => f.rt.analysis.expr(left));
      let value = await evalExpr(spine[spine.length - 1].left, f);
      for (let i = spine.length - 1; i >= 0; i--) value = await binaryAsync(spine[i], value, f);
      return value;
    }
    case "Unary":
      return unaryOp(f.rt, e.op, await evalExpr(e.operand, f), e.span);
    case "Call":
      return evalCall(e, f);
    case "ToolCall": {
      const input = await evalExpr(e.arg, f);
      assertToolActive(f, e.tool, e.span);
      const req: ToolCallRequest = { tool: e.tool, input, mode: "direct", stepId: f.scope.nextStep() };
      // Only agent methods pass their agent and method call (top level and top-level fns pass neither).
      if (f.agent) {
        req.agent = f.agent.decl;
        req.methodCall = f.methodCall;
      }
      if (f.signal) req.signal = f.signal;
      return callTool(req, e.span, f);
    }
    case "Ask": {
      const prompt = await evalExpr(e.prompt, f);
      const runner = f.rt.host.ask;
      // The checker admits `ask` only in methods of agents with a model, and the runtime builds
      // a runner whenever a model is declared; an embedder that passes none gets this error.
      if (!runner || !f.agent) throw errorAt(f.rt.sourceOf, "RUNTIME_ERROR", "'ask' needs a model runtime, and none was given to the interpreter", e.span);
      const agent = f.agent;
      const thread = e.thread ? threadOperand(f, await evalExpr(e.thread, f), e.thread.span) : undefined;
      const streamed = e.stream ? streamToStdout(f.rt.host) : undefined;
      const request: AskRequest = {
        agent: agent.decl,
        methodCall: f.methodCall ?? { failures: 0 },
        prompt: typeof prompt === "string" ? prompt : renderValue(prompt),
        target: e.target,
        usingTool: e.usingTool?.name,
        site: e,
        location: locationOf(f.rt.sourceOf, e.span),
        stepId: f.scope.nextStep(),
        onText: streamed?.write,
        context: askContextOf(f),
        callAgent: agentToolCaller(f),
        // A `parallel` branch's cancellation (or the method call's: an MCP client's cancel) reaches the provider request.
        signal: f.signal ?? f.methodCall?.signal,
      };
      const out = await located(e.span, () => (thread ? askInThread(f, thread, runner, request) : runner.ask(request))).then(
        (value) => (streamed?.end(true), value),
        (error: unknown) => {
          streamed?.end(false);
          throw error;
        },
      );
      return (out ?? null) as Value;
    }
    case "DbCall": {
      // Queries and commands run through the tool pipeline under their own name (spec §12):
      // a query is a read, a command a write, for the calling agent's tool_policy.
      const input = await evalExpr(e.arg, f);
      assertToolActive(f, e.name, e.span);
      const req: ToolCallRequest = { tool: e.name, input, mode: "direct", stepId: f.scope.nextStep() };
      if (f.agent) {
        req.agent = f.agent.decl;
        req.methodCall = f.methodCall;
      }
      if (f.signal) req.signal = f.signal;
      return callTool(req, e.span, f);
    }
    case "ParallelFor":
      return evalParallelFor(e, f, evalExpr, execBlockAsync);
    case "Num":
    case "Bool":
    case "Null":
    case "Name":
    case "Lambda":
      return evalSync(e, f);
    default:
      return assertNever(e, () => evalSync(e, f));
  }
}

/**
 * A tool, query or command call: an error it raises (the pipeline's messages are the spec's,
 * unlocated) gets the call expression as its site, so the CLI can point at the call.
 */
function callTool(req: ToolCallRequest, span: Span, f: Frame): Promise<Value> {
  return located(span, async () => ((await f.rt.host.tools.call(req)) ?? null) as Value);
}

async function located<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw locateError(e, span);
  }
}

/** `left op right` with the left side's value already known; `and`/`or` short-circuit. */
async function binaryAsync(e: BinaryExpr, left: Value, f: Frame): Promise<Value> {
  if (e.op === "and") return isTruthy(left) && isTruthy(await evalExpr(e.right, f));
  if (e.op === "or") return isTruthy(left) || isTruthy(await evalExpr(e.right, f));
  return binaryOp(f.rt, e.op, left, await evalExpr(e.right, f), e.span);
}

async function evalStrAsync(parts: readonly StrPart[], f: Frame): Promise<string> {
  let out = "";
  for (const p of parts) out += typeof p === "string" ? p : renderValue(await evalExpr(p, f));
  return out;
}


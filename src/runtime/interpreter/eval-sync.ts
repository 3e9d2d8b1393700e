/**
 * The synchronous expression evaluator: every expression the analysis marks as unable to
 * suspend (no tool call, `ask`, `query`/`command`, or user function call inside) is
 * evaluated here, with no promises — the fast path for arithmetic, strings, data access
 * and builtins.
 */
import type { Expr, Span, StrPart } from "../../syntax/ast";
import { assertNever, type UnknownNode } from "../../syntax/assert-never";
import { BUILTINS, callBuiltin } from "./builtins";
import { applyLambdaSync, lambdaOf } from "./builtins-lambdas";
import { type BinaryExpr, binaryOp, leftSpine, readField, readIndex, unaryOp } from "./operators";
import { readName } from "./names";
import { errorAt } from "./runtime-errors";
import type { Frame } from "./runtime-context";
import { isTruthy, renderValue, setField, type ObjectValue, type Value } from "./values";

export function evalSync(e: Expr, f: Frame): Value {
  switch (e.kind) {
    case "Name": {
      const v = f.vars.get(e.name);
      return v !== undefined ? v : readName(f, e);
    }
    case "Num":
      return e.value;
    case "Bool":
      return e.value;
    case "Null":
      return null;
    case "Str":
      return evalStrSync(e.parts, f);
    case "Array": {
      const out = new Array<Value>(e.items.length);
      for (let i = 0; i < e.items.length; i++) out[i] = evalSync(e.items[i], f);
      return out;
    }
    case "Object": {
      const obj: ObjectValue = {};
      for (const en of e.entries) setField(obj, en.key, evalSync(en.value, f));
      return obj;
    }
    case "Member":
      return readField(f.rt, evalSync(e.object, f), e.property, e.span);
    case "Index":
      return readIndex(f.rt, evalSync(e.object, f), evalSync(e.index, f), e.span);
    case "Binary":
      return e.left.kind === "Binary" ? evalChainSync(e, f) : binarySync(e, evalSync(e.left, f), f);
    case "Unary":
      return unaryOp(f.rt, e.op, evalSync(e.operand, f), e.span);
    case "Call": {
      // The analysis sends only unshadowed builtin calls here.
      const name = e.callee.kind === "Name" ? e.callee.name : "";
      const builtin = BUILTINS[name];
      if (!builtin) throw errorAt(f.rt.sourceOf, "RUNTIME_ERROR", "Internal error: a call reached the synchronous evaluator", e.span);
      const lambda = builtin.lambda ? lambdaOf(e) : undefined;
      if (lambda) return applyLambdaSync(f, name, e, lambda, evalSync(e.args[0], f), (body) => evalSync(body, f));
      const args = new Array<Value>(e.args.length);
      for (let i = 0; i < e.args.length; i++) args[i] = evalSync(e.args[i], f);
      return callBuiltin(f.rt, name, builtin, args, e.span);
    }
    // A lambda is evaluated only by the builtin it is the argument of (above).
    case "Lambda":
      throw errorAt(f.rt.sourceOf, "RUNTIME_ERROR", "A lambda (x) => … is only an argument of a builtin that takes one (map, filter, …)", e.span);
    // These may suspend: the analysis sends them to the asynchronous evaluator.
    case "ToolCall":
    case "Ask":
    case "DbCall":
    case "ParallelFor":
      return notSynchronous(f, e);
    default:
      return assertNever(e, (node) => notSynchronous(f, node));
  }
}

function notSynchronous(f: Frame, e: UnknownNode): never {
  throw errorAt(f.rt.sourceOf, "RUNTIME_ERROR", `Internal error: '${e.kind}' reached the synchronous evaluator`, e.span as Span);
}

/** `left op right` with the left side's value already known; `and`/`or` short-circuit. */
function binarySync(e: BinaryExpr, left: Value, f: Frame): Value {
  if (e.op === "and") return isTruthy(left) && isTruthy(evalSync(e.right, f));
  if (e.op === "or") return isTruthy(left) || isTruthy(evalSync(e.right, f));
  return binaryOp(f.rt, e.op, left, evalSync(e.right, f), e.span);
}

/** A left-nested chain (`a + b + c …`), folded bottom up without recursion. */
function evalChainSync(e: BinaryExpr, f: Frame): Value {
  const spine = leftSpine(e);
  let value = evalSync(spine[spine.length - 1].left, f);
  for (let i = spine.length - 1; i >= 0; i--) value = binarySync(spine[i], value, f);
  return value;
}

function evalStrSync(parts: readonly StrPart[], f: Frame): string {
  let out = "";
  for (const p of parts) out += typeof p === "string" ? p : renderValue(evalSync(p, f));
  return out;
}

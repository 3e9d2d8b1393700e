/**
 * CST → AST for expressions.
 *
 * The grammar matches binary expressions as one flat list; `operator-precedence.ts`
 * builds the tree. Parentheses leave no node: the inner expression keeps its own span
 * (an enclosing binary expression's span does include them).
 */
import type * as ohm from "ohm-js";
import type { BinaryOp, Expr, Stmt } from "./ast";
import { type FlatOperand, type Located, type PrefixOp, applyPrecedence } from "./operator-precedence";
import { enterNesting, leaveNesting } from "./nesting-limit";
import { commaList, optionalList, parseContext, spanBetween, spanOf, toAst } from "./parse-context";
import { interpolatedString } from "./string-literal";

type Node = ohm.Node;

function located(node: Node): Located {
  const { base } = parseContext();
  return { expr: toAst(node), start: base + node.source.startIdx, end: base + node.source.endIdx };
}

/** Stands in for an expression past the nesting limit (whose error already fails the parse). */
const tooDeep = (node: Node): Expr => ({ kind: "Null", span: spanOf(node) });

/** `operand (binOp operand)*` → a tree, with the nesting of the longest prefix run counted. */
function flatExpr(this: Node, first: Node, ops: Node, rests: Node): Expr {
  // Fast path: most expressions are a single operand without prefix operators.
  if (ops.numChildren === 0 && first.child(0).numChildren === 0) return toAst(first.child(1));
  const { file, base } = parseContext();
  let deepest: FlatOperand | undefined;
  const operands: FlatOperand[] = [first, ...rests.children].map((operand) => {
    const flat: FlatOperand = {
      prefixes: operand.child(0).children.map((p) => ({
        op: (p.sourceString === "-" ? "-" : "not") as PrefixOp,
        start: base + p.source.startIdx,
      })),
      convert: () => located(operand.child(1)),
    };
    if (flat.prefixes.length > (deepest?.prefixes.length ?? 0)) deepest = flat;
    return flat;
  });
  const binaryOps = ops.children.map((op) => op.sourceString as BinaryOp);
  // Each prefix operator is a level (`- - x` nests two Unary nodes); binary chains are not.
  const levels = deepest?.prefixes.length ?? 0;
  if (deepest && !enterNesting(first, levels, deepest.prefixes[0].start)) return tooDeep(first);
  const tree = applyPrecedence(file, operands, binaryOps).expr;
  leaveNesting(levels);
  return tree;
}

export const expressionActions: ohm.ActionDict<unknown> = {
  Expr: flatExpr,

  Postfix(primary: Node, opens: Node, rests: Node): Expr {
    // A chain of n postfix operations nests n nodes (`a.b.c` is Member(Member(a))).
    const levels = opens.numChildren;
    if (levels > 0 && !enterNesting(opens.child(0), levels)) return tooDeep(this);
    const expr = postfixChain(toAst(primary) as Expr, primary, opens, rests);
    leaveNesting(levels);
    return expr;
  },
  CallArgs(list: Node, _comma: Node, _close: Node): Expr[] {
    return optionalList(list);
  },
  Exprs: commaList,
  CallArgList: commaList,
  Lambda(_open: Node, param: Node, _close: Node, _arrow: Node, body: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const lambda: Expr = { kind: "Lambda", param: param.sourceString, paramSpan: spanOf(param), body: toAst(body), span: spanOf(this) };
    leaveNesting();
    return lambda;
  },
  IndexArg(index: Node, _close: Node): Expr {
    return toAst(index);
  },

  Primary(inner: Node): Expr {
    const span = spanOf(inner);
    switch (inner.ctorName) {
      case "ident":
        return { kind: "Name", name: inner.sourceString, span };
      case "string":
        return interpolatedString(inner);
      case "number":
        return { kind: "Num", value: Number(inner.sourceString), span };
      case "kwTrue":
        return { kind: "Bool", value: true, span };
      case "kwFalse":
        return { kind: "Bool", value: false, span };
      case "kwNull":
        return { kind: "Null", span };
      default:
        return toAst(inner);
    }
  },
  Paren(_open: Node, inner: Node, _close: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const expr = toAst(inner);
    leaveNesting();
    return expr;
  },
  ArrayLit(_open: Node, items: Node, _comma: Node, _close: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const array: Expr = { kind: "Array", items: optionalList(items), span: spanOf(this) };
    leaveNesting();
    return array;
  },
  ObjectLit(_open: Node, entries: Node, _comma: Node, _close: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const object: Expr = { kind: "Object", entries: optionalList(entries), span: spanOf(this) };
    leaveNesting();
    return object;
  },
  ObjEntries: commaList,
  ObjEntry(key: Node, _colon: Node, value: Node) {
    return { key: toAst(key) as string, keySpan: spanOf(key), value: toAst(value) as Expr };
  },

  ToolCall(_kw: Node, name: Node, _open: Node, arg: Node, _close: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const call: Expr = { kind: "ToolCall", tool: name.sourceString, toolSpan: spanOf(name), arg: toAst(arg), span: spanOf(this) };
    leaveNesting();
    return call;
  },
  Ask(stream: Node, _kw: Node, prompt: Node, _arrow: Node, target: Node, using: Node, inThread: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const expr: Expr = { kind: "Ask", prompt: toAst(prompt), target: toAst(target), span: spanOf(this) };
    // Keys in the fast parser's order (fast-expressions.ts): using tool, thread, stream.
    if (using.numChildren > 0) {
      const name = using.child(0).child(2);
      expr.usingTool = { name: name.sourceString, span: spanOf(name) };
    }
    if (inThread.numChildren > 0) expr.thread = toAst(inThread.child(0).child(1));
    leaveNesting();
    if (stream.numChildren > 0) expr.stream = true;
    return expr;
  },
  ParallelFor(_kw: Node, _sameLine: Node, loop: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const parts = toAst(loop) as { loop: Extract<Stmt, { kind: "For" }>; limit?: Expr };
    leaveNesting();
    const expr: Extract<Expr, { kind: "ParallelFor" }> = { kind: "ParallelFor", loop: parts.loop, span: spanOf(this) };
    if (parts.limit) expr.limit = parts.limit;
    return expr;
  },
  ParallelLoop(_for: Node, name: Node, _in: Node, iterable: Node, limit: Node, body: Node) {
    const loop: Extract<Stmt, { kind: "For" }> = {
      kind: "For",
      name: name.sourceString,
      nameSpan: spanOf(name),
      iterable: toAst(iterable),
      body: toAst(body),
      span: spanOf(this),
    };
    return limit.numChildren > 0 ? { loop, limit: toAst(limit.child(0).child(1)) as Expr } : { loop };
  },
  DbCall(kw: Node, name: Node, _open: Node, arg: Node, _close: Node): Expr {
    if (!enterNesting(this)) return tooDeep(this);
    const call: Expr = {
      kind: "DbCall",
      op: kw.sourceString === "query" ? "query" : "command",
      name: name.sourceString,
      nameSpan: spanOf(name),
      arg: toAst(arg),
      span: spanOf(this),
    };
    leaveNesting();
    return call;
  },
};

/**
 * Applies the postfix steps of `Postfix` (and of an assignment target, which has no calls)
 * to `expr`, the value of `first`: `opens` holds each step's opener, `rests` what follows it.
 */
export function postfixChain(expr: Expr, first: Node, opens: Node, rests: Node): Expr {
  for (let i = 0; i < opens.numChildren; i++) {
    const rest = rests.child(i);
    const span = spanBetween(first, rest);
    switch (opens.child(i).ctorName) {
      case "callOpen":
        expr = { kind: "Call", callee: expr, args: toAst(rest), span };
        break;
      case "indexOpen":
        expr = { kind: "Index", object: expr, index: toAst(rest), span };
        break;
      default:
        expr = { kind: "Member", object: expr, property: rest.sourceString, span };
    }
  }
  return expr;
}

/**
 * CST → AST for expressions.
 *
 * Binary levels are iterations in the grammar (`Add = Mul (addOp Mul)*`) and are folded
 * left here, so `a - b - c` is `(a - b) - c`. Parentheses leave no node: the inner
 * expression keeps its own span.
 */
import type * as ohm from "ohm-js";
import type { BinaryOp, Expr } from "./ast";
import { listItems, spanBetween, spanOf, toAst } from "./parse-context";
import { interpolatedString } from "./string-literal";

type Node = ohm.Node;

/** Folds `first (op right)*` left-associatively. */
function foldBinary(first: Node, ops: Node, rights: Node): Expr {
  let left = toAst(first) as Expr;
  for (let i = 0; i < ops.numChildren; i++) {
    const right = rights.child(i);
    left = {
      kind: "Binary",
      op: ops.child(i).sourceString as BinaryOp,
      left,
      right: toAst(right),
      span: spanBetween(first, right),
    };
  }
  return left;
}

export const expressionActions: ohm.ActionDict<unknown> = {
  OrExpr: foldBinary,
  AndExpr: foldBinary,
  CmpExpr: foldBinary,
  AddExpr: foldBinary,
  MulExpr: foldBinary,
  NotExpr_not(_kw: Node, operand: Node): Expr {
    return { kind: "Unary", op: "not", operand: toAst(operand), span: spanOf(this) };
  },
  NegExpr_neg(_minus: Node, operand: Node): Expr {
    return { kind: "Unary", op: "-", operand: toAst(operand), span: spanOf(this) };
  },

  PostfixExpr(primary: Node, opens: Node, rests: Node): Expr {
    let expr = toAst(primary) as Expr;
    for (let i = 0; i < opens.numChildren; i++) {
      const rest = rests.child(i);
      const span = spanBetween(primary, rest);
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
  },
  CallArgs(list: Node, _comma: Node, _close: Node): Expr[] {
    return listItems(list);
  },
  IndexArg(index: Node, _close: Node): Expr {
    return toAst(index);
  },

  Primary_name(_ident: Node): Expr {
    return { kind: "Name", name: this.sourceString, span: spanOf(this) };
  },
  Primary_string(node: Node): Expr {
    return interpolatedString(node);
  },
  Primary_number(_node: Node): Expr {
    return { kind: "Num", value: Number(this.sourceString), span: spanOf(this) };
  },
  Primary_true(_kw: Node): Expr {
    return { kind: "Bool", value: true, span: spanOf(this) };
  },
  Primary_false(_kw: Node): Expr {
    return { kind: "Bool", value: false, span: spanOf(this) };
  },
  Primary_null(_kw: Node): Expr {
    return { kind: "Null", span: spanOf(this) };
  },
  Primary_paren(_open: Node, inner: Node, _close: Node): Expr {
    return toAst(inner);
  },
  Primary_array(_open: Node, list: Node, _comma: Node, _close: Node): Expr {
    return { kind: "Array", items: listItems(list), span: spanOf(this) };
  },
  Primary_object(_open: Node, list: Node, _comma: Node, _close: Node): Expr {
    const entries = list.asIteration().children.map((entry) => {
      const key = entry.child(0);
      return { key: toAst(key) as string, keySpan: spanOf(key), value: toAst(entry.child(2)) as Expr };
    });
    return { kind: "Object", entries, span: spanOf(this) };
  },

  ToolCall(_kw: Node, name: Node, _open: Node, arg: Node, _close: Node): Expr {
    return { kind: "ToolCall", tool: name.sourceString, toolSpan: spanOf(name), arg: toAst(arg), span: spanOf(this) };
  },
  Ask(_kw: Node, prompt: Node, _arrow: Node, target: Node, using: Node): Expr {
    const expr: Expr = { kind: "Ask", prompt: toAst(prompt), target: toAst(target), span: spanOf(this) };
    if (using.numChildren > 0) {
      const name = using.child(0).child(2);
      expr.usingTool = { name: name.sourceString, span: spanOf(name) };
    }
    return expr;
  },
  DbCall(kw: Node, name: Node, _open: Node, arg: Node, _close: Node): Expr {
    return {
      kind: "DbCall",
      op: kw.sourceString === "query" ? "query" : "command",
      name: name.sourceString,
      nameSpan: spanOf(name),
      arg: toAst(arg),
      span: spanOf(this),
    };
  },
};

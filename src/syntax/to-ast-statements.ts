/**
 * CST → AST for statements. `else if` becomes an `If` that is the only statement of
 * the `else` branch, so later stages see one shape.
 */
import type * as ohm from "ohm-js";
import type { AssignTarget, Stmt } from "./ast";
import { enterNesting, leaveNesting } from "./nesting-limit";
import { itemsWithoutSeps, spanOf, toAst } from "./parse-context";
import { postfixChain } from "./to-ast-expressions";

type Node = ohm.Node;

export const statementActions: ohm.ActionDict<unknown> = {
  Block(open: Node, stmts: Node, _close: Node): Stmt[] {
    if (!enterNesting(open)) return [];
    const body = itemsWithoutSeps<Stmt>(stmts);
    leaveNesting();
    return body;
  },
  IfStmt(_kw: Node, cond: Node, then: Node, _else: Node, elseBranch: Node): Stmt {
    const stmt: Stmt = { kind: "If", cond: toAst(cond), then: toAst(then), span: spanOf(this) };
    if (elseBranch.numChildren > 0) stmt.else = toAst(elseBranch.child(0));
    return stmt;
  },
  ElseBranch(inner: Node): Stmt[] {
    return inner.ctorName === "IfStmt" ? [toAst(inner)] : toAst(inner);
  },
  ForStmt(_kw: Node, name: Node, _in: Node, iterable: Node, body: Node): Stmt {
    return {
      kind: "For",
      name: name.sourceString,
      nameSpan: spanOf(name),
      iterable: toAst(iterable),
      body: toAst(body),
      span: spanOf(this),
    };
  },
  ParallelStmt(_kw: Node, _sameLine: Node, body: Node): Stmt {
    return { kind: "Parallel", body: toAst(body), span: spanOf(this) };
  },
  WhileStmt(_kw: Node, cond: Node, body: Node): Stmt {
    return { kind: "While", cond: toAst(cond), body: toAst(body), span: spanOf(this) };
  },
  BreakStmt(_kw: Node): Stmt {
    return { kind: "Break", span: spanOf(this) };
  },
  ContinueStmt(_kw: Node): Stmt {
    return { kind: "Continue", span: spanOf(this) };
  },
  ReturnStmt_value(_kw: Node, _sameLine: Node, value: Node): Stmt {
    return { kind: "Return", value: toAst(value), span: spanOf(this) };
  },
  ReturnStmt_bare(_kw: Node): Stmt {
    return { kind: "Return", span: spanOf(this) };
  },
  TryStmt(_kw: Node, body: Node, _catch: Node, errName: Node, handler: Node): Stmt {
    return {
      kind: "Try",
      body: toAst(body),
      errName: errName.sourceString,
      errSpan: spanOf(errName),
      handler: toAst(handler),
      span: spanOf(this),
    };
  },
  TypedAssign(name: Node, _colon: Node, type: Node, _eq: Node, value: Node): Stmt {
    return {
      kind: "Assign",
      name: name.sourceString,
      nameSpan: spanOf(name),
      type: toAst(type),
      value: toAst(value),
      span: spanOf(this),
    };
  },
  Assign(name: Node, _eq: Node, value: Node): Stmt {
    return { kind: "Assign", name: name.sourceString, nameSpan: spanOf(name), value: toAst(value), span: spanOf(this) };
  },
  IntoAssign(name: Node, opens: Node, rests: Node, _eq: Node, value: Node): Stmt {
    const levels = opens.numChildren;
    if (!enterNesting(opens.child(0), levels)) return { kind: "ExprStmt", expr: toAst(value), span: spanOf(this) };
    const root = { kind: "Name" as const, name: name.sourceString, span: spanOf(name) };
    // One step at least (the grammar's `+`), none a call: always a Member or an Index.
    const target = postfixChain(root, name, opens, rests) as AssignTarget;
    leaveNesting(levels);
    return { kind: "AssignInto", target, value: toAst(value), span: spanOf(this) };
  },
  ExprStmt(expr: Node): Stmt {
    return { kind: "ExprStmt", expr: toAst(expr), span: spanOf(this) };
  },
};

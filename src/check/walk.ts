/**
 * Read-only traversals of statement lists. Every rule that looks inside function bodies
 * uses these, so "what counts as a sub-expression" is decided in one place.
 */
import type { Expr, Stmt, TypeRef } from "../syntax/ast";
import { nestedBlocks } from "../syntax/stmt-blocks";

/** Every statement, nested blocks included, in source order (parent before children). */
export function forEachStmt(stmts: readonly Stmt[], visit: (stmt: Stmt) => void): void {
  for (const stmt of stmts) {
    visit(stmt);
    for (const block of nestedBlocks(stmt)) forEachStmt(block, visit);
  }
}

/** Every statement list: `stmts` itself, then each nested block, in source order. */
export function forEachBlock(stmts: readonly Stmt[], visit: (block: readonly Stmt[]) => void): void {
  visit(stmts);
  for (const stmt of stmts) for (const block of nestedBlocks(stmt)) forEachBlock(block, visit);
}

/** The expressions a statement holds directly (not those of nested statements). */
function ownExprs(stmt: Stmt): Expr[] {
  switch (stmt.kind) {
    case "Assign":
      return [stmt.value];
    case "AssignInto":
      return [stmt.target, stmt.value];
    case "If":
    case "While":
      return [stmt.cond];
    case "For":
      return [stmt.iterable];
    case "Return":
      return stmt.value ? [stmt.value] : [];
    case "ExprStmt":
      return [stmt.expr];
    case "Assert":
      return stmt.message ? [stmt.cond, stmt.message] : [stmt.cond];
    case "Try":
    case "Break":
    case "Continue":
      return [];
  }
}

/** The direct sub-expressions of an expression. */
export function childExprs(expr: Expr): Expr[] {
  switch (expr.kind) {
    case "Str":
      return expr.parts.filter((p): p is Expr => typeof p !== "string");
    case "Array":
      return expr.items;
    case "Object":
      return expr.entries.map((e) => e.value);
    case "Member":
      return [expr.object];
    case "Index":
      return [expr.object, expr.index];
    case "Call":
      return [expr.callee, ...expr.args];
    case "Binary":
      return [expr.left, expr.right];
    case "Unary":
      return [expr.operand];
    case "ToolCall":
    case "DbCall":
      return [expr.arg];
    case "Ask":
      return [expr.prompt];
    default:
      return [];
  }
}

/** Every expression inside an expression tree, the root first. */
export function forEachInExpr(expr: Expr, visit: (expr: Expr) => void): void {
  // An explicit stack, not recursion: a flat `a + b + …` of n terms is n levels deep.
  const pending = [expr];
  while (pending.length > 0) {
    const next = pending.pop() as Expr;
    visit(next);
    const children = childExprs(next);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
}

/** Every expression in a statement list, nested blocks and sub-expressions included. */
export function forEachExpr(stmts: readonly Stmt[], visit: (expr: Expr) => void): void {
  forEachStmt(stmts, (stmt) => {
    for (const e of ownExprs(stmt)) forEachInExpr(e, visit);
  });
}

/** Every type written inside code: typed assignments and `ask … -> T` targets. */
export function forEachTypeInStmts(stmts: readonly Stmt[], visit: (ref: TypeRef) => void): void {
  forEachStmt(stmts, (stmt) => {
    if (stmt.kind === "Assign" && stmt.type) visit(stmt.type);
  });
  forEachExpr(stmts, (expr) => {
    if (expr.kind === "Ask") visit(expr.target);
  });
}

/** Names a body binds anywhere: assignments, `for` variables, `catch` variables. */
export function boundNames(stmts: readonly Stmt[]): Set<string> {
  const names = new Set<string>();
  forEachStmt(stmts, (stmt) => {
    if (stmt.kind === "Assign" || stmt.kind === "For") names.add(stmt.name);
    if (stmt.kind === "Try") names.add(stmt.errName);
  });
  return names;
}

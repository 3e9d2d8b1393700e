/**
 * Read-only traversals of statement lists. Every rule that looks inside function bodies
 * uses these, so "what counts as a sub-expression" is decided in one place.
 *
 * `flattenBody` lists a body's statements and expressions once, by kind, in the order
 * the `forEach…` walks visit them; the checker keeps that listing on each code unit, so
 * a rule that looks for calls (or `ask`s, or names) reads just those instead of walking
 * the tree again. The walks push children (read from the one child visitor, `ast-children.ts`)
 * onto one explicit stack and allocate nothing per node: on a 1 MB program they run over a
 * few hundred thousand nodes.
 */
import type { Expr, Stmt, TypeRef } from "../syntax/ast";
import { boundNameOf, nestedBlocks, pushExprChildren, pushStmtExprs } from "./ast-children";

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

/**
 * Pops `stack` to empty, visiting each expression and then its sub-expressions, the root
 * first. An explicit stack, not recursion: a flat `a + b + …` of n terms is n levels deep.
 */
function drain(stack: Expr[], visit: (expr: Expr) => void): void {
  while (stack.length > 0) {
    const next = stack.pop() as Expr;
    visit(next);
    pushExprChildren(next, stack);
  }
}

/** Every expression inside an expression tree, the root first. */
export function forEachInExpr(expr: Expr, visit: (expr: Expr) => void): void {
  drain([expr], visit);
}

/** Every expression in a statement list, nested blocks and sub-expressions included. */
export function forEachExpr(stmts: readonly Stmt[], visit: (expr: Expr) => void): void {
  const stack: Expr[] = [];
  forEachStmt(stmts, (stmt) => {
    pushStmtExprs(stmt, stack);
    drain(stack, visit);
  });
}

/** A body listed once: what `forEachStmt` and `forEachExpr` would visit, in their order. */
export interface FlatBody {
  stmts: readonly Stmt[];
  /** The statements and the expressions by kind, each list in that order (read with `stmtsOf` / `exprsOf`). */
  stmtKinds: ReadonlyMap<Stmt["kind"], readonly Stmt[]>;
  exprKinds: ReadonlyMap<Expr["kind"], readonly Expr[]>;
}

const NO_NODES: readonly never[] = [];

/**
 * The body's statements of one kind, in source order. A rule that looks for one kind
 * reads this list instead of testing every node: a node's `kind` differs in shape from
 * kind to kind, so testing it on each of a large program's nodes is slow.
 */
export const stmtsOf = <K extends Stmt["kind"]>(body: FlatBody, kind: K): readonly Extract<Stmt, { kind: K }>[] =>
  (body.stmtKinds.get(kind) ?? NO_NODES) as readonly Extract<Stmt, { kind: K }>[];

/** The body's expressions of one kind, in source order (see `stmtsOf`). */
export const exprsOf = <K extends Expr["kind"]>(body: FlatBody, kind: K): readonly Extract<Expr, { kind: K }>[] =>
  (body.exprKinds.get(kind) ?? NO_NODES) as readonly Extract<Expr, { kind: K }>[];

function addByKind<N extends { kind: string }>(byKind: Map<N["kind"], N[]>, node: N): void {
  const list = byKind.get(node.kind);
  if (list) list.push(node);
  else byKind.set(node.kind, [node]);
}

export function flattenBody(body: readonly Stmt[]): FlatBody {
  const stmts: Stmt[] = [];
  const stmtKinds = new Map<Stmt["kind"], Stmt[]>();
  const exprKinds = new Map<Expr["kind"], Expr[]>();
  const stack: Expr[] = [];
  const into = (e: Expr) => addByKind(exprKinds, e);
  forEachStmt(body, (stmt) => {
    stmts.push(stmt);
    addByKind(stmtKinds, stmt);
    pushStmtExprs(stmt, stack);
    drain(stack, into);
  });
  return { stmts, stmtKinds, exprKinds };
}

/** Every type written inside code: typed assignments, then `ask … -> T` targets. */
export function forEachTypeInBody(body: FlatBody, visit: (ref: TypeRef) => void): void {
  for (const stmt of stmtsOf(body, "Assign")) if (stmt.type) visit(stmt.type);
  for (const expr of exprsOf(body, "Ask")) visit(expr.target);
}

/** Names statements bind: assignments, `for` variables, `catch` variables. */
function addBoundNames(stmt: Stmt, names: Set<string>): void {
  const name = boundNameOf(stmt);
  if (name !== undefined) names.add(name);
}

/** Names a body binds anywhere: assignments, `for` variables, `catch` variables. */
export function boundNames(stmts: readonly Stmt[]): Set<string> {
  const names = new Set<string>();
  forEachStmt(stmts, (stmt) => addBoundNames(stmt, names));
  return names;
}

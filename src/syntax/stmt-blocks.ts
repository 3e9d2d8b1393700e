/**
 * The statement lists a statement holds directly: `if`/`else` branches, a `for` or `while`
 * body, `try` and `catch`. One table for every stage that walks into nested blocks (the
 * checker's traversals, the runtime's analyses), so a new statement kind is added once.
 */
import type { Stmt } from "./ast";

const NONE: readonly Stmt[][] = [];

export function nestedBlocks(stmt: Stmt): readonly Stmt[][] {
  switch (stmt.kind) {
    case "If":
      return stmt.else ? [stmt.then, stmt.else] : [stmt.then];
    case "For":
    case "While":
      return [stmt.body];
    case "Try":
      return [stmt.body, stmt.handler];
    default:
      return NONE;
  }
}

/**
 * The one child visitor of the AST: what a statement holds directly (its own expressions,
 * its nested blocks, the variable it binds) and what an expression holds directly (its
 * sub-expressions). Every stage that walks code reads its children here — the checker's
 * walkers (`walk.ts`), the runtime's scope analysis, the language server's index — so a new
 * statement or expression kind is taught its children once, and each switch below fails to
 * compile until it is.
 *
 * The `push…` forms push onto a caller's stack, last child first (so they pop in source
 * order) and allocate nothing: the walkers run them over a few hundred thousand nodes of a
 * 1 MB program.
 */
import type { Expr, Stmt } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";

const NONE: readonly Stmt[][] = [];

/**
 * The statement lists a statement holds directly: `if`/`else` branches, a `for` or `while`
 * body, `try` and `catch`, a `parallel` block — and the `[for …]` of a `parallel for` that is
 * the statement's whole value (`x = parallel for …`, `return parallel for …`): its loop is
 * walked as a nested `for` statement (its variable, its body), so every walker sees it.
 */
export function nestedBlocks(stmt: Stmt): readonly Stmt[][] {
  switch (stmt.kind) {
    case "If":
      return stmt.else ? [stmt.then, stmt.else] : [stmt.then];
    case "For":
    case "While":
    case "Parallel":
      return [stmt.body];
    case "Try":
      return [stmt.body, stmt.handler];
    case "Assign":
      return stmt.value.kind === "ParallelFor" ? [[stmt.value.loop]] : NONE;
    case "Return":
      return stmt.value?.kind === "ParallelFor" ? [[stmt.value.loop]] : NONE;
    case "ExprStmt":
      return stmt.expr.kind === "ParallelFor" ? [[stmt.expr.loop]] : NONE;
    case "AssignInto":
    case "Assert":
    case "Score":
    case "Break":
    case "Continue":
      return NONE;
    default:
      return assertNever(stmt);
  }
}

/** The variable a statement binds, if any: an assignment's, a `for` variable, a `catch` variable. */
export function boundNameOf(stmt: Stmt): string | undefined {
  switch (stmt.kind) {
    case "Assign":
    case "For":
      return stmt.name;
    case "Try":
      return stmt.errName;
    // `x.f = …` writes into a variable that must exist already: it binds nothing.
    case "AssignInto":
    case "If":
    case "While":
    case "Return":
    case "ExprStmt":
    case "Assert":
    case "Score":
    case "Break":
    case "Continue":
    case "Parallel":
      return undefined;
    default:
      return assertNever(stmt);
  }
}

/** Pushes the expressions a statement holds directly (not those of nested statements), last first. */
export function pushStmtExprs(stmt: Stmt, stack: Expr[]): void {
  switch (stmt.kind) {
    case "Assign":
      stack.push(stmt.value);
      return;
    case "AssignInto":
      stack.push(stmt.value, stmt.target);
      return;
    case "If":
    case "While":
      stack.push(stmt.cond);
      return;
    case "For":
      stack.push(stmt.iterable);
      return;
    case "Return":
      if (stmt.value) stack.push(stmt.value);
      return;
    case "ExprStmt":
      stack.push(stmt.expr);
      return;
    case "Assert":
      if (stmt.message) stack.push(stmt.message);
      stack.push(stmt.cond);
      return;
    case "Score":
      stack.push(stmt.value);
      return;
    case "Try":
    case "Break":
    case "Continue":
    case "Parallel":
      return;
    default:
      return assertNever(stmt);
  }
}

/** Pushes the direct sub-expressions of an expression, last first (so they pop in source order). */
export function pushExprChildren(expr: Expr, stack: Expr[]): void {
  switch (expr.kind) {
    case "Str":
      for (let i = expr.parts.length - 1; i >= 0; i--) {
        const part = expr.parts[i];
        if (typeof part !== "string") stack.push(part);
      }
      return;
    case "Array":
      for (let i = expr.items.length - 1; i >= 0; i--) stack.push(expr.items[i]);
      return;
    case "Object":
      for (let i = expr.entries.length - 1; i >= 0; i--) stack.push(expr.entries[i].value);
      return;
    case "Member":
      stack.push(expr.object);
      return;
    case "Index":
      stack.push(expr.index, expr.object);
      return;
    case "Call":
      for (let i = expr.args.length - 1; i >= 0; i--) stack.push(expr.args[i]);
      stack.push(expr.callee);
      return;
    case "Binary":
      stack.push(expr.right, expr.left);
      return;
    case "Unary":
      stack.push(expr.operand);
      return;
    case "Lambda":
      stack.push(expr.body);
      return;
    case "ToolCall":
    case "DbCall":
      stack.push(expr.arg);
      return;
    case "Ask":
      if (expr.thread) stack.push(expr.thread);
      stack.push(expr.prompt);
      return;
    // The loop's iterable and body are the nested `for` statement's (`nestedBlocks`).
    case "ParallelFor":
      if (expr.limit) stack.push(expr.limit);
      return;
    case "Num":
    case "Bool":
    case "Null":
    case "Name":
      return;
    default:
      return assertNever(expr);
  }
}

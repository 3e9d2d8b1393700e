/**
 * `parallel` (issue #27 §4, docs/language/functions.md § Parallel): what would make its
 * branches race or leave them, checked before the run.
 *  - `parallel { … }`: two branches (statements) assigning one variable (E1201), or a branch
 *    reading a variable another assigns (E1202) — the run writes the branches' assignments
 *    into one frame, so either would depend on timing;
 *  - `parallel for` anywhere but as the whole value of an assignment, a `return` or an
 *    expression statement (E1203): there its body is a nested block every walker sees;
 *  - `break`, `continue` (outside a loop of the branch's own) or `return` inside a branch (E1204);
 *  - a `limit` that is no whole number of at least 1 (E1205): a literal by its value, an
 *    expression by its type (a value known only at run time is checked there).
 */
import type { Expr, Span, Stmt } from "../../syntax/ast";
import { nestedBlocks } from "../../language/ast-children";
import { exprsOf, forEachExpr, forEachStmt, stmtsOf } from "../../language/walk";
import type { CheckContext, CodeUnit } from "../context";
import { messages } from "../messages";
import { canBe } from "../types/assignability";
import { typeText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

type ParallelFor = Extract<Expr, { kind: "ParallelFor" }>;

export function parallel(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    for (const s of stmtsOf(unit.flat, "Parallel")) parallelBlock(ctx, unit, s);
    const loops = exprsOf(unit.flat, "ParallelFor");
    if (loops.length > 0) parallelFors(ctx, unit, loops);
  }
}

/** The variables a statement binds anywhere inside it, each with the span of its first binding. */
function bindingsOf(stmt: Stmt): Map<string, Span> {
  const out = new Map<string, Span>();
  forEachStmt([stmt], (s) => {
    const at = s.kind === "Assign" || s.kind === "For" ? { name: s.name, span: s.nameSpan } : s.kind === "Try" ? { name: s.errName, span: s.errSpan } : undefined;
    if (at && !out.has(at.name)) out.set(at.name, at.span);
  });
  return out;
}

function parallelBlock(ctx: CheckContext, unit: CodeUnit, s: Extract<Stmt, { kind: "Parallel" }>): void {
  const branches = s.body.map(bindingsOf);
  const owner = new Map<string, number>();
  branches.forEach((bound, i) => {
    for (const [name, span] of bound) {
      const first = owner.get(name);
      if (first === undefined) owner.set(name, i);
      else ctx.report(messages.parallelSameName(name), span);
    }
  });
  s.body.forEach((branch, i) => {
    forEachExpr([branch], (e) => {
      if (e.kind !== "Name" || unit.isCallee(e)) return;
      const other = owner.get(e.name);
      if (other !== undefined && other !== i && !branches[i].has(e.name)) ctx.report(messages.parallelReadsOther(e.name), e.span);
    });
    jumps(ctx, [branch], false);
  });
}

function parallelFors(ctx: CheckContext, unit: CodeUnit, loops: readonly ParallelFor[]): void {
  const whole = new Set<Expr>();
  for (const s of unit.flat.stmts) {
    const value = s.kind === "Assign" || s.kind === "Return" ? s.value : s.kind === "ExprStmt" ? s.expr : undefined;
    if (value?.kind === "ParallelFor") whole.add(value);
  }
  for (const e of loops) {
    if (!whole.has(e)) {
      ctx.report(messages.parallelForPlacement(), e.span);
      continue;
    }
    jumps(ctx, e.loop.body, false);
    if (e.limit) limit(ctx, e.limit);
  }
}

/** `return` anywhere in a branch, `break`/`continue` outside a loop of the branch's own. */
function jumps(ctx: CheckContext, stmts: readonly Stmt[], inLoop: boolean): void {
  for (const s of stmts) {
    if (s.kind === "Return") ctx.report(messages.parallelJump("return"), s.span);
    if ((s.kind === "Break" || s.kind === "Continue") && !inLoop) ctx.report(messages.parallelJump(s.kind === "Break" ? "break" : "continue"), s.span);
    // A nested `parallel` judges its own branches; the only blocks an assignment, a `return`
    // or an expression statement holds are a `parallel for`'s, judged with it.
    if (s.kind === "Parallel" || s.kind === "Assign" || s.kind === "Return" || s.kind === "ExprStmt") continue;
    const loop = inLoop || s.kind === "For" || s.kind === "While";
    for (const block of nestedBlocks(s)) jumps(ctx, block, loop);
  }
}

function limit(ctx: CheckContext, e: Expr): void {
  if (e.kind === "Num") {
    if (!Number.isInteger(e.value) || e.value < 1) ctx.report(messages.parallelLimit(String(e.value)), e.span);
    return;
  }
  const t = typesOf(ctx).typeOf(e);
  if (!canBe(t, ["int"])) ctx.report(messages.parallelLimit(`'${typeText(t)}'`), e.span);
}

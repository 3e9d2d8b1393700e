/**
 * The checker (`luma check`): builds one context for the program (symbol tables, code
 * units, shared lookups), runs every rule of `RULES` in order, and returns all the
 * diagnostics, sorted by position so they read top to bottom like the file.
 */
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { Expr, Program } from "../syntax/ast";
import { createContext, type CheckContext } from "./context";
import { RULES } from "./rule-table";
import { typesOf } from "./types/typed-program";
import type { Type } from "./types/type-model";

export function check(program: Program): Diagnostic[] {
  return checked(program).diagnostics;
}

/**
 * Check a program and also return every expression's type (`typeText` prints one): the
 * entry point for whatever shows types, such as an editor's hover.
 */
export function typeProgram(program: Program): { types: ReadonlyMap<Expr, Type>; diagnostics: Diagnostic[] } {
  const { ctx, diagnostics } = checked(program);
  return { types: typesOf(ctx).types, diagnostics };
}

function checked(program: Program): { ctx: CheckContext; diagnostics: Diagnostic[] } {
  const ctx = createContext(program);
  for (const [, rule] of RULES) rule(ctx);
  // Stable sort: diagnostics at the same place keep the rule order.
  const diagnostics = ctx.diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => fileOrder(a.d, b.d) || position(a.d) - position(b.d) || a.i - b.i)
    .map(({ d }) => d);
  return { ctx, diagnostics };
}

/** Span start; diagnostics without a place go last. */
const position = (d: Diagnostic) => d.span?.start ?? Number.MAX_SAFE_INTEGER;
/**
 * A program is one file, or a test file with the file it tests (`luma test`'s two-file
 * programs): each file's diagnostics stay together, since offsets of two files do not compare.
 */
const fileOrder = (a: Diagnostic, b: Diagnostic) =>
  a.span && b.span && a.span.file !== b.span.file ? (a.span.file < b.span.file ? -1 : 1) : 0;

export { createContext, type CheckContext, type CodeUnit } from "./context";
export { RULES, type Rule } from "./rule-table";
export { typeText, type Type } from "./types/type-model";

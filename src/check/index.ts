/**
 * The checker (`luma check`): builds one context for the program (symbol tables, code
 * units, shared lookups), runs every rule of `RULES` in order, and returns all the
 * diagnostics, sorted by position so they read top to bottom like the file.
 */
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { Program } from "../syntax/ast";
import { createContext } from "./context";
import { RULES } from "./rule-table";

export function check(program: Program): Diagnostic[] {
  const ctx = createContext(program);
  for (const [, rule] of RULES) rule(ctx);
  // Stable sort: diagnostics at the same place keep the rule order.
  return ctx.diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => position(a.d) - position(b.d) || a.i - b.i)
    .map(({ d }) => d);
}

/** Span start; diagnostics without a place go last. (One program is one file.) */
const position = (d: Diagnostic) => d.span?.start ?? Number.MAX_SAFE_INTEGER;

export { createContext, type CheckContext, type CodeUnit } from "./context";
export { RULES, type Rule } from "./rule-table";

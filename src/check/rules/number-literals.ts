/**
 * §1 number literals must be finite: `1e400` would read as Infinity, which JSON (tool
 * inputs, the checked-program cache, the wire) cannot carry — the same program would
 * behave differently once cached. An integer literal must also be exact: past ±(2^53−1)
 * `9007199254740993` already reads as `…992`, so an id written in the program would look up
 * another row — write such a value as a string of digits. The AST keeps the value, not the
 * text, so "an integer literal" is read as an integer value in the 64-bit range (up to
 * 2^64): where database ids live; `1.5e300` is beyond it and stays a float. Checked in
 * code, annotation arguments and entries.
 */
import type { ConfigValue, ConstValue, Span } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { forEachDeclaredField } from "../declared-fields";
import { exprsOf } from "../../language/walk";
import { messages } from "../messages";

/** Finite, and exact when an integer in the 64-bit range (Luma reads an integer-valued number as an `int`). */
const INT64_RANGE = 2 ** 64;
const exactNumber = (n: number): boolean =>
  Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n) || Math.abs(n) > INT64_RANGE);
const problem = (n: number) => (!Number.isFinite(n) ? messages.numberOutOfRange() : messages.integerNotExact());

/** Whether every number in an annotation argument passes `ok`. */
const everyNumber = (v: ConstValue, ok: (n: number) => boolean): boolean =>
  typeof v === "number" ? ok(v)
  : Array.isArray(v) ? v.every((x) => everyNumber(x, ok))
  : v !== null && typeof v === "object" ? Object.values(v).every((x) => everyNumber(x, ok))
  : true;

function checkConfigValue(ctx: CheckContext, v: ConfigValue): void {
  if (v.kind === "Lit" && typeof v.value === "number" && !exactNumber(v.value)) ctx.report(problem(v.value), v.span);
  if (v.kind === "List") v.items.forEach((i) => checkConfigValue(ctx, i));
  if (v.kind === "Obj") v.entries.forEach((e) => checkConfigValue(ctx, e.value));
}

export function numberLiterals(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    for (const e of exprsOf(unit.flat, "Num")) if (!exactNumber(e.value)) ctx.report(problem(e.value), e.span);
  }
  forEachDeclaredField(ctx.program, (field) => {
    for (const a of field.annotations) {
      for (const arg of a.args) {
        if (everyNumber(arg.value, exactNumber)) continue;
        ctx.report(everyNumber(arg.value, Number.isFinite) ? messages.integerNotExact() : messages.numberOutOfRange(), arg.span as Span);
      }
    }
  });
  for (const decl of ctx.program.decls) {
    const entries = "entries" in decl ? decl.entries : decl.kind === "Tool" ? decl.options : [];
    for (const e of entries) checkConfigValue(ctx, e.value);
  }
}

/**
 * §1 number literals must be finite: `1e400` would read as Infinity, which JSON (tool
 * inputs, the checked-program cache, the wire) cannot carry — the same program would
 * behave differently once cached. Checked in code, annotation arguments and entries.
 */
import type { ConfigValue, ConstValue, Span } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { forEachDeclaredField } from "../declared-fields";
import { messages } from "../messages";
import { forEachExpr } from "../walk";

const finite = (v: ConstValue): boolean =>
  typeof v === "number" ? Number.isFinite(v)
  : Array.isArray(v) ? v.every(finite)
  : v !== null && typeof v === "object" ? Object.values(v).every(finite)
  : true;

function checkConfigValue(ctx: CheckContext, v: ConfigValue): void {
  if (v.kind === "Lit" && typeof v.value === "number" && !Number.isFinite(v.value)) ctx.report(messages.numberOutOfRange(), v.span);
  if (v.kind === "List") v.items.forEach((i) => checkConfigValue(ctx, i));
  if (v.kind === "Obj") v.entries.forEach((e) => checkConfigValue(ctx, e.value));
}

export function numberLiterals(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    forEachExpr(unit.body, (e) => {
      if (e.kind === "Num" && !Number.isFinite(e.value)) ctx.report(messages.numberOutOfRange(), e.span);
    });
  }
  forEachDeclaredField(ctx.program, (field) => {
    for (const a of field.annotations) {
      for (const arg of a.args) if (!finite(arg.value)) ctx.report(messages.numberOutOfRange(), arg.span as Span);
    }
  });
  for (const decl of ctx.program.decls) {
    const entries = "entries" in decl ? decl.entries : decl.kind === "Tool" ? decl.options : [];
    for (const e of entries) checkConfigValue(ctx, e.value);
  }
}

/**
 * §4: `idempotency_key` is a path into the tool's input — `request_id`, or with the
 * `input.` prefix `input.request_id` — naming an existing parameter, or a field nested in
 * an object-typed parameter (`order.id`). A path, never an expression.
 */
import type { Field, ToolDecl } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

/** Follows `parts` through the fields, entering schema (and union member) types. */
function pathExists(ctx: CheckContext, fields: readonly Field[], parts: readonly string[]): boolean {
  const field = fields.find((f) => f.name === parts[0]);
  if (!field) return false;
  if (parts.length === 1) return true;
  const resolved = ctx.resolveType(field.type);
  if (resolved.kind === "schema") return pathExists(ctx, resolved.decl.fields, parts.slice(1));
  if (resolved.kind === "union") {
    if (parts.length === 2 && parts[1] === resolved.decl.tag) return true;
    return resolved.decl.members.some((m) => {
      const member = ctx.symbols.schemas.get(m.name);
      return member !== undefined && pathExists(ctx, member.fields, parts.slice(1));
    });
  }
  return false;
}

function checkTool(ctx: CheckContext, tool: ToolDecl): void {
  const entry = ctx.entry(tool.options, "idempotency_key");
  if (!entry) return;
  const v = entry.value;
  const parts = v.kind === "Path" ? v.parts : v.kind === "Lit" && typeof v.value === "string" ? v.value.split(".") : undefined;
  if (!parts) return; // a wrong value kind is reported by the config-keys rule
  const ok =
    pathExists(ctx, tool.params, parts) || (parts[0] === "input" && parts.length > 1 && pathExists(ctx, tool.params, parts.slice(1)));
  if (!ok) ctx.report(messages.idempotencyKeyPath(tool.name, parts.join(".")), v.span);
}

export function toolIdempotencyKey(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) if (decl.kind === "Tool") checkTool(ctx, decl);
}

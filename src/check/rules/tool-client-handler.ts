/**
 * `handler: "client"`: the caller answers the tool's calls, no host handler runs
 * (runtime/tools/steps/client-answer.ts). The keys that only steer a host handler — another
 * handler (`mcp`, `mcp_tool`), its cache, retries, idempotency, its `needs` contexts — would
 * silently do nothing on such a tool, so each is reported where it is written (E0278).
 */
import type { ToolDecl } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

const HOST_HANDLER_KEYS = ["mcp", "mcp_tool", "cache", "retries", "idempotent", "idempotency_key"] as const;

function checkTool(ctx: CheckContext, tool: ToolDecl): void {
  const handler = ctx.entry(tool.options, "handler")?.value;
  if (handler?.kind !== "Lit" || handler.value !== "client") return;
  for (const key of HOST_HANDLER_KEYS) {
    const entry = ctx.entry(tool.options, key);
    if (entry) ctx.report(messages.clientToolKey(tool.name, key), entry.keySpan);
  }
  for (const needs of tool.needs) ctx.report(messages.clientToolKey(tool.name, "needs"), needs.span);
}

export function toolClientHandler(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) if (decl.kind === "Tool") checkTool(ctx, decl);
}

/**
 * §4 consistency rules, with the spec's exact messages: a write tool is never cached and
 * is retried only when idempotent with a key; `idempotent` needs a key; a timeout must be
 * positive. (The needs-and-cache rule is the runtime's, at program start, not `luma check`'s.)
 */
import type { Entry, ToolDecl } from "../../syntax/ast";
import type { CheckContext } from "../context";
import type { TOOL_KEYS } from "../../language/keys/tool-keys";
import { exact } from "../messages";
import { idempotencyKeyHint } from "../first-hour-hints";

const litOf = (entry: Entry | undefined) => (entry?.value.kind === "Lit" ? entry.value.value : undefined);

function checkTool(ctx: CheckContext, tool: ToolDecl): void {
  const option = (key: keyof typeof TOOL_KEYS) => ctx.entry(tool.options, key);
  const isWrite = litOf(option("side_effects")) === "write";
  const cache = option("cache");
  const retries = option("retries");
  const idempotent = option("idempotent");
  const timeout = option("timeout");
  const hasKey = option("idempotency_key") !== undefined;
  const isIdempotent = litOf(idempotent) === true;

  if (isWrite && cache && litOf(cache) === true) ctx.report(exact.writeToolCache(tool.name), cache.span);
  const retryCount = litOf(retries);
  if (isWrite && retries && typeof retryCount === "number" && retryCount > 0 && !(isIdempotent && hasKey)) {
    ctx.report(exact.writeToolRetries(tool.name), retries.span, { hints: hasKey ? ["set `idempotent: true`"] : idempotencyKeyHint(tool, !isIdempotent) });
  }
  if (idempotent && isIdempotent && !hasKey) {
    ctx.report(exact.idempotentNeedsKey(tool.name), idempotent.span, { hints: idempotencyKeyHint(tool, false) });
  }
  const ms = litOf(timeout);
  if (timeout && typeof ms === "number" && ms <= 0) ctx.report(exact.toolTimeoutPositive(tool.name), timeout.span);
}

export function toolConsistency(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) if (decl.kind === "Tool") checkTool(ctx, decl);
}

/**
 * Issue #25 §2, §5: a tool's `audience` says who may call it. `"model"` tools are offered to
 * models only, so a direct `tool x(…)` call from code is refused (E0271); `"code"` tools are
 * never offered to a model, so `ask … using tool x` cannot force one (E0272), and the keys
 * that only shape what a model is told (`instructions`, `max_result_chars`) change nothing
 * on one (E0273, a warning). An agent may still list a `"code"` tool in `tools`: that allows
 * its methods to call it directly (docs/language/tools.md "Who sees a tool").
 */
import type { ToolDecl } from "../../syntax/ast";
import { exprsOf } from "../../language/walk";
import type { TOOL_KEYS } from "../../language/keys/tool-keys";
import { CHECK_TOOL_AUDIENCE_DIAGNOSTICS } from "../../diagnostics/catalog/check-tool-audience-codes";
import type { CheckContext } from "../context";
import { messages } from "../messages";

const MODEL_ONLY_KEYS: readonly (keyof typeof TOOL_KEYS)[] = ["instructions", "max_result_chars"];

/** A tool's audience as written (`undefined`: the default, "both", or a value the key rule refused). */
function audienceOf(ctx: CheckContext, decl: ToolDecl): string | undefined {
  const value = ctx.entry(decl.options, "audience")?.value;
  return value?.kind === "Lit" && typeof value.value === "string" ? value.value : undefined;
}

export function toolAudience(ctx: CheckContext): void {
  const audiences = new Map<string, string>();
  for (const decl of ctx.program.decls) {
    if (decl.kind !== "Tool") continue;
    const audience = audienceOf(ctx, decl);
    if (audience === undefined) continue;
    audiences.set(decl.name, audience);
    if (audience !== "code") continue;
    for (const key of MODEL_ONLY_KEYS) {
      const entry = ctx.entry(decl.options, key);
      if (entry) ctx.warn(messages.modelOptionOnCodeTool(decl.name, key), entry.keySpan);
    }
  }
  if (audiences.size === 0) return;
  for (const unit of ctx.units) {
    for (const e of exprsOf(unit.flat, "ToolCall")) {
      if (audiences.get(e.tool) === "model") {
        ctx.report(messages.modelOnlyToolCalledDirectly(e.tool), e.toolSpan, { hints: [CHECK_TOOL_AUDIENCE_DIAGNOSTICS.modelOnlyToolCalledDirectly.hints.both] });
      }
    }
    for (const e of exprsOf(unit.flat, "Ask")) {
      if (e.usingTool && audiences.get(e.usingTool.name) === "code") ctx.report(messages.codeOnlyToolForced(e.usingTool.name), e.usingTool.span);
    }
  }
}

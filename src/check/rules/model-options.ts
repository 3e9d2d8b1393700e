/**
 * Issue #26 §5: a model's sampling and reasoning options fit the API it speaks
 * (`language/model-options.ts`): an option the API has no field for (E0291), a
 * `provider_options` path Luma writes itself (E0292), `top_p` outside 0–1 (E0293), and on
 * Anthropic what extended thinking refuses (E0294) — a temperature, a forced tool in an
 * agent on that model.
 */
import type { ConfigValue, Entry } from "../../syntax/ast";
import { PROVIDER_NAMES, type ProviderName } from "../../language/provider-families";
import { MODEL_APIS, MODEL_OPTION_KEYS, modelApiOf } from "../../language/model-options";
import { exprsOf } from "../../language/walk";
import type { CheckContext } from "../context";
import { messages } from "../messages";

const litOf = (v: ConfigValue | undefined) => (v?.kind === "Lit" ? v.value : undefined);

export function modelOptions(ctx: CheckContext): void {
  const thinking = new Set<string>();
  for (const model of ctx.program.decls) {
    if (model.kind !== "Model") continue;
    const provider = litOf(ctx.entry(model.entries, "provider")?.value);
    if (typeof provider !== "string" || !(PROVIDER_NAMES as readonly string[]).includes(provider)) continue;
    const api = MODEL_APIS[modelApiOf(provider as ProviderName, litOf(ctx.entry(model.entries, "api")?.value) as string | undefined)];
    const effort = ctx.entry(model.entries, "reasoning_effort");
    for (const key of MODEL_OPTION_KEYS) {
      const e = ctx.entry(model.entries, key);
      if (e && api.unsupported.includes(key)) ctx.report(messages.modelOptionUnsupported(model.name, key, api.title), e.keySpan);
    }
    const topP = ctx.entry(model.entries, "top_p");
    const p = litOf(topP?.value);
    if (topP && typeof p === "number" && (p < 0 || p > 1)) ctx.report(messages.modelOptionRange(model.name), topP.value.span);
    const options = ctx.entry(model.entries, "provider_options")?.value;
    if (options?.kind === "Obj") {
      const reserved = effort ? [...api.reserved, ...api.effortPaths] : api.reserved;
      for (const [path, at] of setPaths(options.entries)) {
        // An object Luma writes into may be extended (`generationConfig: { topK: 3 }`); only the paths Luma writes are refused.
        if (reserved.some((r) => path === r || path.startsWith(r + "."))) ctx.report(messages.providerOptionReserved(model.name, path, api.title), at);
      }
    }
    if (provider === "anthropic" && effort) {
      thinking.add(model.name);
      const temperature = ctx.entry(model.entries, "temperature");
      if (temperature) ctx.report(messages.thinkingConflict(model.name, "no temperature"), temperature.keySpan);
    }
  }
  if (thinking.size > 0) forcedTools(ctx, thinking);
}

/** Every path an object of constants sets, to its leaves and to each object on the way. */
function setPaths(entries: readonly Entry[], prefix = ""): [string, Entry["span"]][] {
  const out: [string, Entry["span"]][] = [];
  for (const e of entries) {
    const path = prefix + e.key;
    out.push([path, e.keySpan]);
    if (e.value.kind === "Obj") out.push(...setPaths(e.value.entries, path + "."));
  }
  return out;
}

/** `ask … using tool t` in an agent whose model thinks on Anthropic: the API refuses a forced tool. */
function forcedTools(ctx: CheckContext, thinking: ReadonlySet<string>): void {
  for (const unit of ctx.units) {
    const model = unit.agent && ctx.entry(unit.agent.entries, "model")?.value;
    const name = model?.kind === "Path" ? model.parts.join(".") : undefined;
    if (name === undefined || !thinking.has(name)) continue;
    for (const ask of exprsOf(unit.flat, "Ask")) {
      if (ask.usingTool) ctx.report(messages.thinkingConflict(name, "no forced tool (`using tool`)"), ask.usingTool.span);
    }
  }
}

/**
 * An agent's `tool_contexts` list names entries of luma.config.json's `tool_contexts`
 * (spec §6, §4 "needs and tool_contexts"). A name that is not configured can never be
 * granted — a typo that would surface, if ever, as TOOL_CONTEXT_INVALID deep inside a run —
 * so it is a start-up error (exit 2) at the list item, with the closest configured name.
 * It needs the config, so it is a start-up rule (program-rules.ts), which `luma check` applies too.
 */
import { AGENT_KEYS } from "../../../language/keys/agent-keys";
import { entryOf } from "../../../language/keys/key-spec";
import { error } from "../../../diagnostics/diagnostic";
import { startupError, type LumaError } from "../../../diagnostics/luma-error";
import type { Diagnostic } from "../../../diagnostics/diagnostic";
import type { Program } from "../../../syntax/ast";
import { didYouMean } from "../../../diagnostics/did-you-mean";

/** Every unknown context of every agent, as one start-up error; undefined when all are configured. */
export function checkAgentToolContexts(program: Program, configured: Record<string, unknown> | undefined): LumaError | undefined {
  const names = Object.keys(configured ?? {});
  const known = new Set(names);
  const diagnostics: Diagnostic[] = [];
  for (const decl of program.decls) {
    if (decl.kind !== "Agent") continue;
    // A key appears once in a block (a duplicate is a check error).
    const entry = entryOf(AGENT_KEYS, decl.entries, "tool_contexts");
    if (entry?.value.kind !== "List") continue;
    for (const item of entry.value.items) {
      if (item.kind !== "Lit" || typeof item.value !== "string" || known.has(item.value)) continue;
      const message = `Agent '${decl.name}' lists tool context '${item.value}', which luma.config.json's tool_contexts does not define.`;
      const hints = didYouMean(item.value, names);
      diagnostics.push(error(message, item.span, { code: "E0616", hints: hints.length ? hints : [`configured contexts: ${names.length ? names.join(", ") : "none"}`] }));
    }
  }
  if (diagnostics.length === 0) return undefined;
  return startupError(diagnostics[0].message, { diagnostics });
}

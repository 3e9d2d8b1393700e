/**
 * The start-up rules that depend only on the program and its config: a cached tool with
 * `needs` (E0604), an agent's `tool_contexts` naming a context the config does not define
 * (E0616), `thread(id)` without a `"threads"` store (E0660), an `ask` answer or a tool schema its provider's strict mode cannot take (E0615,
 * E0617). `luma FILE` applies them before its first statement (open-program.ts) and `luma
 * check` applies the same function after the checker, so the two never disagree on a
 * program: what a run would refuse at start-up, `check` refuses too. Nothing here loads a
 * tool module or opens a resource.
 */
import { dirname, resolve } from "node:path";
import type { LoadedConfig } from "../config/config-types";
import { loadConfig } from "../config/load-config";
import type { LumaError } from "../diagnostics/luma-error";
import type { SchemaTable } from "../schema/schema-table-types";
import type { Program } from "../syntax/ast";
import { checkToolRuntimeRules } from "./tools/steps/startup-rules";
import { checkAgentToolContexts } from "./tools/steps/agent-context-rules";
import { checkThreadStore } from "./stores/threads/thread-store-rule";

/** The first rule the program breaks, as the start-up error a run gives; undefined when none. */
export async function programRuleError(program: Program, config: LoadedConfig, schemas: () => Promise<SchemaTable>): Promise<LumaError | undefined> {
  const ruleError = checkToolRuntimeRules(program) ?? checkAgentToolContexts(program, config.config.tool_contexts) ?? checkThreadStore(program, config.config);
  if (ruleError) return ruleError;
  // An ask whose provider cannot take its (recursive) schema is rejected now, not at the provider.
  if (!program.decls.some((d) => d.kind === "Model")) return undefined;
  const { checkAskFormats } = await import("./ask/ask-format-support");
  try {
    checkAskFormats(program, await schemas());
  } catch (e) {
    return e as LumaError;
  }
  return undefined;
}

/** `luma check FILE`: the same rules, with the config next to the program (as a run without --config finds it). */
export async function programRuleErrorOf(program: Program, file: string): Promise<LumaError | undefined> {
  const config = await loadConfig({ programDir: dirname(resolve(file)) });
  return programRuleError(program, config, async () => (await import("../schema/schema-table")).createSchemaTable(program));
}

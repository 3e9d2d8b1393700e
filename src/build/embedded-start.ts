/**
 * How a built agent starts: the config and tool modules it was built with, from memory.
 *
 * `--config PATH` at run time replaces the embedded config — tool contexts, the idempotency
 * store, datasource settings are the deployment's business — but `tool_modules` and
 * `tool_module_policy` were judged when the agent was built, so a config that changes them is
 * refused (exit 2) instead of silently running modules under rules nobody checked them against.
 * The project directory is the working directory: the build machine's does not exist here —
 * stores and journals the config names are written there; the config's `replay` cassette,
 * part of the program, is embedded and replayed from memory (embedded-cassette.ts).
 */
import { basename, join } from "node:path";
import { defaultConfig, loadConfig } from "../config/load-config";
import type { LoadedConfig, LumaConfig } from "../config/config-types";
import { startupError } from "../diagnostics/luma-error";
import type { BuiltAgentStart } from "../runtime/start-program";
import type { AgentPayload } from "./agent-payload";
import { loadEmbeddedModules } from "./load-embedded-modules";

/** What the build decided about modules, in a form two configs can be compared by. */
const fixedPart = (config: LumaConfig): string =>
  JSON.stringify({ tool_modules: config.tool_modules, tool_module_policy: config.tool_module_policy ?? null });

export function embeddedStart(agent: AgentPayload, cwd: string): BuiltAgentStart {
  const embedded = agent.config ?? defaultConfig();
  return {
    async loadConfig(configPath) {
      if (configPath === undefined) {
        const path = agent.manifest.config ? join(cwd, basename(agent.manifest.config.path)) : undefined;
        return { config: embedded, projectDir: cwd, path } satisfies LoadedConfig;
      }
      const loaded = await loadConfig({ configPath, programDir: cwd, cwd });
      if (fixedPart(loaded.config) !== fixedPart(embedded)) {
        throw startupError(
          `${configPath}: its tool_modules or tool_module_policy differ from the ones this agent was built with; ` +
            `they are fixed at build time (rebuild with 'luma build' to change them).`,
          { catalogCode: "E0707" },
        );
      }
      return loaded;
    },
    loadModules: (policy) => loadEmbeddedModules(agent.modules, policy),
    replay: agent.replay && { text: agent.replay.text },
  };
}

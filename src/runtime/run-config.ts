/**
 * The config a program starts with, and the directory its relative paths resolve against.
 * `luma FILE`: FILE's directory and the luma.config.json found there (or `--config`). A built
 * agent (src/build/embedded-start.ts): the working directory and the config it embeds — or
 * the `--config` given at run time, judged by the agent's rule. Everything that reads the
 * config besides the start-up itself (the MCP server's `mcp_serve`, `luma chat --thread`'s
 * store) reads it here, so a built agent's embedded config is the one they see too.
 */
import { dirname, resolve } from "node:path";
import { loadConfig } from "../config/load-config";
import type { LoadedConfig } from "../config/config-types";
import type { StartOptions } from "./start-options";

export interface RunConfig {
  config: LoadedConfig;
  programDir: string;
}

export async function loadRunConfig(opts: Pick<StartOptions, "cwd" | "file" | "configPath" | "builtAgent">): Promise<RunConfig> {
  const agent = opts.builtAgent;
  const programDir = agent ? opts.cwd : dirname(resolve(opts.cwd, opts.file));
  const configPath = opts.configPath && resolve(opts.cwd, opts.configPath);
  const config = agent ? await agent.loadConfig(configPath) : await loadConfig({ configPath, programDir });
  return { config, programDir };
}

/**
 * The one call the runtime makes at startup to get its tool registry: refuse an
 * unimplemented module policy, load every tool module, build the registry. Every failure is
 * a startup error (exit code 2).
 */
import { dirname, resolve } from "node:path";
import type { LoadedConfig } from "../../../config/config-types";
import type { Program } from "../../../syntax/ast";
import { loadToolModules, moduleRequests } from "../module-loading/load-tool-modules";
import { assertModulePolicySupported } from "../module-loading/policy-gate";
import { buildRegistry } from "./build-registry";
import type { ToolRegistry } from "./registry-types";

export interface LoadToolRegistryOptions {
  program: Program;
  config: LoadedConfig;
  /** `--tool-module` values, relative to `cwd`. */
  cliModules: string[];
  cwd: string;
  /** Where config `tool_modules` paths are relative to; defaults to the directory of `program.file`. */
  programDir?: string;
}

export async function loadToolRegistry(opts: LoadToolRegistryOptions): Promise<ToolRegistry> {
  assertModulePolicySupported(opts.config);
  const programDir = opts.programDir ?? dirname(resolve(opts.cwd, opts.program.file));
  const requests = moduleRequests({ config: opts.config, programDir, cliModules: opts.cliModules, cwd: opts.cwd });
  const modules = await loadToolModules(requests);
  return buildRegistry({ program: opts.program, modules });
}

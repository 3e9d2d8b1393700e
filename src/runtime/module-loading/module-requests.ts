/**
 * The tool modules a run asks for: the config's `tool_modules` (relative to the program's
 * directory) and `--tool-module PATH` (relative to the working directory). Kept apart from
 * the loaders so the registry can see "nothing to load" without importing them (start-up).
 */
import { resolve } from "node:path";
import type { LoadedConfig } from "../../config/config-types";
import type { ModuleRequest } from "./loaded-module";

export interface ModuleSources {
  config: LoadedConfig;
  /** The directory of the `.luma` file; config paths are relative to it. */
  programDir: string;
  /** `--tool-module` values, in order. */
  cliModules: string[];
  cwd: string;
}

/** Config entries first (the project's baseline), then the command line's. */
export function moduleRequests({ config, programDir, cliModules, cwd }: ModuleSources): ModuleRequest[] {
  const fromConfig = config.config.tool_modules.map(
    (entry): ModuleRequest => ({
      shownPath: entry.path,
      absPath: resolve(programDir, entry.path),
      entry,
      dependencyRoot: entry.dependency_root === undefined ? undefined : resolve(programDir, entry.dependency_root),
    }),
  );
  const fromCli = cliModules.map((path): ModuleRequest => ({ shownPath: path, absPath: resolve(cwd, path) }));
  return [...fromConfig, ...fromCli];
}

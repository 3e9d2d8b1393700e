/** What module loading hands to the registry: one loaded tool module. */
import type { ToolModuleEntry } from "../../config/config-types";
import type { ModuleKind } from "./module-kind";

/** One module to load: from `--tool-module` (relative to the cwd) or a config entry (relative to the program). */
export interface ModuleRequest {
  /** As the user wrote it; messages name the module this way. */
  shownPath: string;
  absPath: string;
  /** The config entry's metadata; absent for `--tool-module`. */
  entry?: ToolModuleEntry;
  /** `entry.dependency_root`, resolved like `path` (against the program's directory). */
  dependencyRoot?: string;
}

export interface LoadedModule {
  shownPath: string;
  /** The resolved real path: the module's identity (two spellings of one file are one module). */
  realPath: string;
  kind: ModuleKind;
  /** Declared `version`, if any request for this file gave one. */
  version?: string;
  /** Manifest fields kept for the strict policy (dependencies, dependency_root). */
  entry?: ToolModuleEntry;
  /** The ESM namespace, or CommonJS `module.exports` (under `sandbox: "process"`: proxies to its child). */
  exports: unknown;
  /** `sandbox: "process"`: tool name → credential variable the registry grants its calls. */
  credentials?: Map<string, string>;
  /** `sandbox: "process"`: stops the module's child. */
  close?: () => void;
}

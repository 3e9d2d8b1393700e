/**
 * What a built agent carries (`luma build`, src/build/): everything decided at build time —
 * the checked program, its source (for diagnostics), the checker's warnings, the validated
 * config, each tool module bundled into one text — and the manifest `--luma-manifest` prints.
 * Nothing read from the environment is in it: keys, credentials and store URLs stay at run time.
 *
 * The generated entry of a built agent sets the payload on a global symbol before the Luma
 * runtime bundle is evaluated; `src/cli/main.ts` asks `builtAgentPayload()` first thing, so
 * a plain `luma` (no payload) pays one property read.
 */
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { LumaConfig, ToolModuleEntry } from "../config/config-types";
import type { ModuleKind } from "../runtime/tools/module-loading/module-kind";
import type { Program } from "../syntax/ast";

/** Bumped when the payload's shape changes: a runtime never reads a payload of another shape. */
export const PAYLOAD_FORMAT = 1;

export const PAYLOAD_SYMBOL = "luma.builtAgent";

export interface EmbeddedModule {
  /** As the user named it (config entry or `--tool-module`): messages name it this way. */
  shownPath: string;
  kind: ModuleKind;
  /** Who runs the bundled text: our CommonJS loader or an ES module loader. */
  runAs: "cjs" | "esm";
  /** The module and the npm packages it imports, bundled into one JavaScript text. */
  code: string;
  /** The config entry's metadata (strict policy reads `dependencies`), if any. */
  entry?: ToolModuleEntry;
  version?: string;
}

export interface ManifestModule {
  path: string;
  /** sha256 of the module file as it was on disk (what `integrity` is computed over). */
  sha256: string;
  /** sha256 of the embedded, bundled text. */
  bundled_sha256: string;
  /** npm packages bundled into it. */
  packages: string[];
}

export interface AgentManifest {
  luma_version: string;
  program: { path: string; sha256: string };
  config?: { path: string; sha256: string };
  tool_module_policy: "none" | "strict";
  modules: ManifestModule[];
  target: string;
}

export interface AgentPayload {
  format: number;
  /** The program file as named at build time (diagnostics and runtime errors name it so). */
  file: string;
  source: string;
  program: Program;
  warnings: Diagnostic[];
  /** The validated config; undefined when the build used the defaults. */
  config?: LumaConfig;
  modules: EmbeddedModule[];
  manifest: AgentManifest;
}

/** The payload of the running executable, when it is a built agent. */
export function builtAgentPayload(): AgentPayload | undefined {
  const payload = (globalThis as Record<symbol, unknown>)[Symbol.for(PAYLOAD_SYMBOL)] as AgentPayload | undefined;
  return payload?.format === PAYLOAD_FORMAT ? payload : undefined;
}

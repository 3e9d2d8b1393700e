/**
 * What a built agent carries (`luma build`, src/build/): everything decided at build time —
 * the checked program, its source (for diagnostics), the checker's warnings, the validated
 * config, each tool module bundled into one text — and the manifest `--luma-manifest` prints.
 * Nothing read from the environment is in it: keys, credentials and store URLs stay at run time.
 *
 * The generated entry of a built agent sets the payload on a global symbol before the Luma
 * runtime bundle is evaluated — sealed: its JSON text and that text's sha256, as written by
 * `luma build`. `src/cli/main.ts` asks `builtAgentPayload()` first thing, so a plain `luma`
 * (no payload) pays one property read; a built agent's payload is verified there, before
 * anything of it runs: the text against its digest, then each bundled module against the
 * manifest's `bundled_sha256`, the program source against `program.sha256` and an embedded
 * cassette against `replay.sha256` — so the code
 * that runs is the code `--luma-manifest` names. A mismatch (the file edited after the build)
 * is a startup refusal, E0708. This is a consistency check, not a signature: whoever can
 * rewrite the file can rewrite the digests too.
 */
import type { Diagnostic } from "../diagnostics/diagnostic";
import { startupError } from "../diagnostics/luma-error";
import type { LumaConfig, ToolModuleEntry } from "../config/config-types";
import type { ModuleKind } from "../runtime/module-loading/module-kind";
import type { Program } from "../syntax/ast";
import type { EmbeddedCassette } from "./embedded-cassette";

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
  /** The files the program imports (docs/language/imports.md), as spans name them; absent when none. */
  imports?: { path: string; sha256: string }[];
  config?: { path: string; sha256: string };
  /** The config's `replay` cassette, embedded (embedded-cassette.ts). */
  replay?: { path: string; sha256: string };
  /** The tier the modules run under; `"process"`: the host running the agent needs the mechanism too. */
  tool_module_policy: "none" | "strict" | "process";
  modules: ManifestModule[];
  target: string;
  /** sha256 of the payload's JSON text; set when the payload is unsealed (it cannot be inside the text it digests). */
  payload_sha256?: string;
}

export interface AgentPayload {
  format: number;
  /** The program file as named at build time (diagnostics and runtime errors name it so). */
  file: string;
  source: string;
  /** The texts of the files the program imports, for the lines of diagnostics inside them. */
  imported?: { file: string; source: string }[];
  program: Program;
  warnings: Diagnostic[];
  /** The validated config; undefined when the build used the defaults. */
  config?: LumaConfig;
  /** The cassette the config's `replay` names, so the agent replays it from any directory. */
  replay?: EmbeddedCassette;
  modules: EmbeddedModule[];
  manifest: AgentManifest;
}

/** What the generated entry sets: the payload's JSON text and its sha256 at build time. */
export interface SealedPayload {
  json: string;
  sha256: string;
}

const sha256Hex = (data: string): string => new Bun.CryptoHasher("sha256").update(data).digest("hex");

/** The text the generated entry embeds for `payload` (compile-agent.ts). */
export function sealPayload(payload: AgentPayload): SealedPayload {
  const json = JSON.stringify(payload);
  return { json, sha256: sha256Hex(json) };
}

const tampered = (what: string) =>
  startupError(
    `this executable was modified after 'luma build': ${what}. Refusing to run it; build it again from its sources.`,
    { catalogCode: "E0708" },
  );

/** The payload of the running executable, when it is a built agent; verified before it is returned. */
export function builtAgentPayload(): AgentPayload | undefined {
  const sealed = (globalThis as Record<symbol, unknown>)[Symbol.for(PAYLOAD_SYMBOL)] as Partial<SealedPayload> | undefined;
  if (sealed === undefined) return undefined;
  if (typeof sealed.json !== "string" || typeof sealed.sha256 !== "string") throw tampered("its embedded payload is not sealed");
  const digest = sha256Hex(sealed.json);
  if (digest !== sealed.sha256) throw tampered(`its embedded payload's sha256 is ${digest}, not the ${sealed.sha256} it was built with`);
  let payload: AgentPayload;
  try {
    payload = JSON.parse(sealed.json) as AgentPayload;
  } catch {
    throw tampered("its embedded payload is not JSON");
  }
  if (payload?.format !== PAYLOAD_FORMAT) return undefined;
  verifyAgainstManifest(payload);
  return { ...payload, manifest: { ...payload.manifest, payload_sha256: digest } };
}

/** The parts `--luma-manifest` names, against what will run (an edit that also fixed the outer digest). */
function verifyAgainstManifest(payload: AgentPayload): void {
  const { manifest } = payload;
  if (sha256Hex(payload.source) !== manifest.program.sha256) throw tampered(`the program ${payload.file} does not match the manifest's sha256`);
  const imported = payload.imported ?? [];
  if (imported.length !== (manifest.imports?.length ?? 0) || imported.some((f, i) => sha256Hex(f.source) !== manifest.imports![i]!.sha256)) {
    throw tampered("its imported files do not match the manifest's");
  }
  if ((payload.replay && sha256Hex(payload.replay.text)) !== manifest.replay?.sha256) throw tampered("its embedded cassette does not match the manifest's sha256");
  if (payload.modules.length !== manifest.modules.length) throw tampered("its tool modules are not the ones its manifest lists");
  for (const [index, m] of payload.modules.entries()) {
    if (sha256Hex(m.code) !== manifest.modules[index].bundled_sha256) {
      throw tampered(`the embedded text of tool module '${m.shownPath}' does not match the manifest's bundled_sha256`);
    }
  }
}

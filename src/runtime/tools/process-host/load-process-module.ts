/**
 * Loading one tool module under `sandbox: "process"` (docs/security.md "The process tier"),
 * after integrity passed: strict's static checks run here, in luma, over the module and
 * every file it loads (every violation in one startup error); then the module's child is
 * started (module-child.ts) in its sandbox (sandbox-command.ts), seeing exactly those files,
 * and loads it. What comes back is the module's export shape: the registry gets one proxy
 * function per handler and bridge, which sends the call to the child — the pipeline around
 * it (needs, ctx, AbortSignal, timeout, typed errors, trace) is the one every tier uses.
 *
 * The child started here, at start-up, is kept warm for the calls; a child that dies is
 * started again on the next call (first use). A program asking for `"process"` where the
 * mechanism is missing stops here, at start-up, naming what is missing (E0510): never a
 * silent fallback to a weaker tier.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { startupError } from "../../../diagnostics/luma-error";
import type { DependencyRules } from "../../module-loading/dependency-rules";
import type { ModuleKind } from "../../module-loading/module-kind";
import type { PreparedSource } from "../../module-loading/prepare-source";
import { checkStrictModule } from "../../module-policy/load-strict-module";
import { visibleEnv, type ModulePolicy } from "../../module-policy/module-policy";
import { ModuleChild } from "./module-child";
import { childEnv, findMechanism, namespaceProblem, sandboxArgv, type Mechanism } from "./sandbox-command";
import type { BundledModule } from "../registry/run-bundled-module";
import type { ModuleSource, WirePolicy } from "./wire";

export interface ProcessModuleInput {
  policy: ModulePolicy;
  rules?: DependencyRules;
  shownPath: string;
  realPath: string;
  kind: ModuleKind;
  raw: string;
  prepared: PreparedSource;
  env: Record<string, string | undefined>;
}

/** What the registry reads off a module loaded under `"process"`. */
export interface ProcessModule {
  exports: Record<string, unknown>;
  /** Tool name → the credential variable it declares: sent with that tool's calls only. */
  credentials: Map<string, string>;
  close: () => void;
}

let mechanism: Mechanism | undefined;
const requireMechanism = (policy: ModulePolicy): Mechanism => {
  if (mechanism) return mechanism;
  const found = findMechanism();
  if (typeof found === "string") {
    throw startupError(`${policy.configName}: tool_module_policy.sandbox "process" cannot run here: ${found}. Install it, or choose another tier explicitly.`, { catalogCode: "E0510" });
  }
  return (mechanism = found);
};

export async function loadProcessModule(input: ProcessModuleInput): Promise<ProcessModule> {
  requireMechanism(input.policy);
  const view = fileModuleView(input);
  const rules = input.rules && { allow: input.rules.allow && [...input.rules.allow], root: input.rules.root };
  return hostModule({ policy: input.policy, shownPath: input.shownPath, env: input.env, view, from: { kind: "file", realPath: input.realPath, rules } });
}

/** What a module file's child sees besides the runtime: every file strict's checks found it loads (their violations are thrown). */
export function fileModuleView(input: Omit<ProcessModuleInput, "env">): string[] {
  const { checked, dataFiles } = checkStrictModule(input);
  return moduleView([...checked.entries()], dataFiles, input.rules);
}

/** The child's command line and its whole environment: the load and the early start (early-start.ts) compute them alike. */
export function childLaunch(mechanism: Mechanism, policy: ModulePolicy, view: string[], hostEnv: Record<string, string | undefined>) {
  return { argv: () => sandboxArgv({ mechanism, policy, view }), env: childEnv(visibleEnv(policy, hostEnv)) };
}

/**
 * A built agent's module (`luma build`) under `"process"`: its bundled text (checked at build
 * time, its digest checked when the agent started) goes to the child on the channel, so the
 * child's view holds no file of it — nothing is written to the host's disk.
 */
export function loadBundledProcessModule(index: number, module: BundledModule, policy: ModulePolicy, env: Record<string, string | undefined>): Promise<ProcessModule> {
  return hostModule({ policy, shownPath: module.shownPath, env, view: [], from: { kind: "bundled", index, module } });
}

interface HostInput {
  policy: ModulePolicy;
  shownPath: string;
  env: Record<string, string | undefined>;
  /** The files the child sees besides the runtime's own. */
  view: string[];
  from: ModuleSource;
}

/** Starts the module's child, loads the module there, and returns one proxy per handler and bridge. */
async function hostModule({ policy, shownPath, env: hostEnv, view, from }: HostInput): Promise<ProcessModule> {
  const found = requireMechanism(policy);
  for (const extra of policy.allowPaths) {
    if (!existsSync(extra.path)) throw startupError(`${policy.configName}: tool_module_policy.allow_paths names '${extra.path}', which does not exist.`, { catalogCode: "E0511" });
  }
  const credentials = new Map<string, string>();
  const child = new ModuleChild({
    shownPath,
    ...childLaunch(found, policy, view, hostEnv),
    killGraceMs: policy.killGraceMs,
    maxMemoryMb: policy.maxMemoryMb,
    load: { t: "load", shownPath, policy: wirePolicy(policy), from },
  });
  let shape;
  try {
    shape = await child.start();
  } catch (e) {
    child.close();
    if ((e as { phase?: unknown }).phase === "startup") throw e;
    const problem = namespaceProblem(found);
    if (problem) throw startupError(`${policy.configName}: tool_module_policy.sandbox "process" cannot run here: ${problem}. Install it, or choose another tier explicitly.`, { catalogCode: "E0510" });
    throw startupError(`Tool module '${shownPath}' could not start in its sandbox: ${(e as Error).message}`, { catalogCode: "E0512" });
  }
  const credentialEnv = (name: string): Record<string, string> | undefined => {
    const variable = credentials.get(name);
    const value = variable === undefined ? undefined : hostEnv[variable];
    return variable === undefined || value === undefined ? undefined : { [variable]: value };
  };
  const handlers: Record<string, unknown> = {};
  for (const name of shape.handlers) {
    // Four parameters: the pipeline hands every proxy the signal and ctx; the child's handler takes what it declared.
    handlers[name] = function (input: unknown, signal?: AbortSignal, needs?: unknown, ctx?: unknown) {
      return child.call("tool", name, [input, needs, ctx ?? null], signal, credentialEnv(name));
    };
  }
  const datasources: Record<string, unknown> = {};
  for (const name of shape.datasources) {
    datasources[name] = function (sql: string, params: unknown[], signal?: AbortSignal) {
      return child.call("datasource", name, [sql, params], signal);
    };
  }
  return { exports: { lumaTools: handlers, datasources }, credentials, close: () => child.close() };
}

const wirePolicy = (policy: ModulePolicy): WirePolicy => ({
  allowBuiltins: [...policy.allowBuiltins],
  allowEnv: policy.allowEnv,
  allowEnvNames: policy.allowEnvNames && [...policy.allowEnvNames],
  allowNetwork: policy.allowNetwork,
  allowSpawn: policy.allowSpawn,
  maxConcurrency: policy.maxConcurrency,
  projectDir: policy.projectDir,
  configName: policy.configName,
});

/**
 * The paths the child sees: every project file the module loads (and the package.json that
 * says how each loads), and the whole directory of every package it reaches (a package
 * reads its own files by computed paths: its package.json, its data).
 */
function moduleView(checked: [string, boolean][], dataFiles: string[], rules?: DependencyRules): string[] {
  const view = new Set<string>();
  for (const [file, asPackage] of checked) {
    const root = asPackage ? packageRoot(file) : undefined;
    if (root) view.add(root);
    else {
      view.add(file);
      const manifest = nearestPackageJson(dirname(file));
      if (manifest) view.add(manifest);
    }
  }
  for (const file of dataFiles) view.add(packageRoot(file) ?? file);
  if (rules?.root) {
    const manifest = join(rules.root, "package.json");
    if (existsSync(manifest)) view.add(manifest);
  }
  // A directory bound already holds its files: binding one of them again is harmless but noisy.
  return [...view].filter((path) => ![...view].some((other) => other !== path && path.startsWith(other + sep)));
}

/** `…/node_modules/pkg` or `…/node_modules/@scope/pkg` of a file inside a package. */
function packageRoot(file: string): string | undefined {
  const parts = file.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length - 1) return undefined;
  const take = parts[at + 1].startsWith("@") ? at + 3 : at + 2;
  return parts.slice(0, take).join(sep);
}

function nearestPackageJson(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, "package.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at || basename(at) === "") return undefined;
  }
}

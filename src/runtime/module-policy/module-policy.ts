/**
 * The `tool_module_policy` block, resolved once at start-up (spec §10 "Strict policy").
 *
 * Without a block there is no policy at all — no sandbox, no semaphore, nothing of the table
 * applies (the defaults below hold *inside* a block only). With a block, `sandbox` decides
 * whether the strict checks run; `max_concurrency` applies either way.
 */
import { basename, resolve } from "node:path";
import type { AllowedPath, LoadedConfig, ToolModulePolicy } from "../../config/config-types";

/** `"none"`, `"strict"` (checks + VM context, in this process) or `"process"` (strict's checks, each module in its own confined child). */
export type SandboxTier = "none" | "strict" | "process";

export interface ModulePolicy {
  /** Strict's load checks, lint and VM context apply: true for `"strict"` and `"process"`. */
  strict: boolean;
  tier: SandboxTier;
  /** Builtin names allowed to load, without the `node:` prefix (`bun:*` names as written). */
  allowBuiltins: ReadonlySet<string>;
  /** Whether a module may read the environment at all (`allow_env` true or a list). */
  allowEnv: boolean;
  /** With a list: only these variables are visible; undefined means every variable. */
  allowEnvNames?: readonly string[];
  allowNetwork: boolean;
  /** `"process"`: extra paths its child sees (resolved against projectDir). */
  allowPaths: readonly { path: string; write: boolean }[];
  /** `"process"`: the child may start processes inside its sandbox. */
  allowSpawn: boolean;
  /** `"process"`: a handler ignoring its AbortSignal keeps its child this long after its timeout. */
  killGraceMs: number;
  /** Enforced under `"process"` (the child's limit); recorded only otherwise (modules run in this process). */
  maxMemoryMb?: number;
  /** Concurrent calls into one module (a per-module semaphore). */
  maxConcurrency: number;
  /** The directory holding luma.config.json (or the program's): no module loads from outside it. */
  projectDir: string;
  /** How messages name the config file. */
  configName: string;
}

/** `node:fs` and `fs` are one builtin; `bun:ffi` keeps its prefix (there is no bare `ffi`). */
export const builtinName = (specifier: string): string => specifier.replace(/^node:/, "");

export function resolveModulePolicy({ config, projectDir, path }: LoadedConfig): ModulePolicy | undefined {
  const block: ToolModulePolicy | undefined = config.tool_module_policy;
  if (block === undefined) return undefined;
  const tier: SandboxTier = block.sandbox ?? "none";
  const env = block.allow_env ?? false;
  return {
    strict: tier !== "none",
    tier,
    allowBuiltins: new Set((block.allow_builtins ?? []).map(builtinName)),
    allowEnv: env !== false,
    allowEnvNames: Array.isArray(env) ? env : undefined,
    allowNetwork: block.allow_network ?? false,
    allowPaths: (block.allow_paths ?? []).map((p) => allowedPath(projectDir, p)),
    allowSpawn: block.allow_spawn ?? false,
    killGraceMs: block.kill_grace_ms ?? 1000,
    maxMemoryMb: block.max_memory_mb,
    maxConcurrency: block.max_concurrency ?? 1,
    projectDir,
    configName: path ? basename(path) : "luma.config.json",
  };
}

const allowedPath = (projectDir: string, p: AllowedPath): { path: string; write: boolean } =>
  typeof p === "string" ? { path: resolve(projectDir, p), write: false } : { path: resolve(projectDir, p.path), write: p.write ?? false };

/** The environment a module may see under `policy`: all of `env`, none, or the listed names. */
export function visibleEnv(policy: Pick<ModulePolicy, "allowEnv" | "allowEnvNames">, env: Record<string, string | undefined>): Record<string, string> {
  const seen: Record<string, string> = {};
  if (!policy.allowEnv) return seen;
  const names = policy.allowEnvNames ?? Object.keys(env);
  for (const name of names) if (env[name] !== undefined) seen[name] = env[name]!;
  return seen;
}

/** Keys that only the strict sandbox reads; under `sandbox: "none"` they would silently do nothing. */
const STRICT_ONLY_KEYS = ["allow_builtins", "allow_env", "allow_network"] as const;
/** Keys that only `sandbox: "process"` reads. */
const PROCESS_ONLY_KEYS = ["allow_paths", "allow_spawn", "kill_grace_ms"] as const;

/**
 * One-line notices printed at start-up: what the block asks for but Luma does not do.
 * Saying so is the point — a setting that is silently ignored reads as a guarantee.
 */
export function policyNotices(policy: ModulePolicy, block: ToolModulePolicy): string[] {
  const notices: string[] = [];
  if (policy.maxMemoryMb !== undefined && policy.tier !== "process") {
    notices.push(
      `notice: ${policy.configName}: tool_module_policy.max_memory_mb (${policy.maxMemoryMb}) is recorded but not enforced: tool modules run inside the luma process.`,
    );
  }
  const inert = STRICT_ONLY_KEYS.filter((key) => block[key] !== undefined);
  if (!policy.strict && inert.length > 0) {
    notices.push(
      `notice: ${policy.configName}: tool_module_policy.${inert.join(", ")} ${inert.length === 1 ? "has" : "have"} no effect without "sandbox": "strict".`,
    );
  }
  const processOnly = PROCESS_ONLY_KEYS.filter((key) => block[key] !== undefined);
  if (policy.tier !== "process" && processOnly.length > 0) {
    notices.push(
      `notice: ${policy.configName}: tool_module_policy.${processOnly.join(", ")} ${processOnly.length === 1 ? "has" : "have"} no effect without "sandbox": "process".`,
    );
  }
  return notices;
}

/**
 * The `tool_module_policy` block, resolved once at start-up (spec §10 "Strict policy").
 *
 * Without a block there is no policy at all — no sandbox, no semaphore, nothing of the table
 * applies (the defaults below hold *inside* a block only). With a block, `sandbox` decides
 * whether the strict checks run; `max_concurrency` applies either way.
 */
import { basename } from "node:path";
import type { LoadedConfig, ToolModulePolicy } from "../../config/config-types";

export interface ModulePolicy {
  strict: boolean;
  /** Builtin names allowed to load, without the `node:` prefix (`bun:*` names as written). */
  allowBuiltins: ReadonlySet<string>;
  allowEnv: boolean;
  allowNetwork: boolean;
  /** Recorded, never enforced: tool modules run inside the luma process. */
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
  return {
    strict: block.sandbox === "strict",
    allowBuiltins: new Set((block.allow_builtins ?? []).map(builtinName)),
    allowEnv: block.allow_env ?? false,
    allowNetwork: block.allow_network ?? false,
    maxMemoryMb: block.max_memory_mb,
    maxConcurrency: block.max_concurrency ?? 1,
    projectDir,
    configName: path ? basename(path) : "luma.config.json",
  };
}

/** Keys that only the strict sandbox reads; under `sandbox: "none"` they would silently do nothing. */
const STRICT_ONLY_KEYS = ["allow_builtins", "allow_env", "allow_network"] as const;

/**
 * One-line notices printed at start-up: what the block asks for but Luma does not do.
 * Saying so is the point — a setting that is silently ignored reads as a guarantee.
 */
export function policyNotices(policy: ModulePolicy, block: ToolModulePolicy): string[] {
  const notices: string[] = [];
  if (policy.maxMemoryMb !== undefined) {
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
  return notices;
}

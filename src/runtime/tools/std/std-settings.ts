/**
 * What luma:std's handlers may reach (docs/language/std-tools.md), resolved once per run
 * from luma.config.json's `"std"` block: the files root (absolute) and the allowed hosts
 * with the headers each is sent. A refusal names the key that would allow the call.
 */
import { dirname, resolve } from "node:path";
import { statSync } from "node:fs";
import type { LoadedConfig } from "../../../config/config-types";
import { runtimeError, startupError, type LumaError } from "../../../diagnostics/luma-error";

/** The most bytes a file read or a response body may hold (1 MiB): a bigger one is an error, never cut. */
export const STD_MAX_BYTES = 1_048_576;

export interface StdSettings {
  /** Absolute; its real path is taken at each call, so a root that moves is followed honestly. */
  filesRoot: string;
  /** `"host"` or `"host:port"`, lower-case. */
  httpHosts: readonly string[];
  /** Allowed host (as listed) → header name → environment variable. */
  headersEnv: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Where header secrets are read, at each call (the host may set them late). */
  env: Record<string, string | undefined>;
}

export interface StdSettingsInput {
  config: LoadedConfig;
  /** The program's directory: the default root of a program run. */
  programDir: string;
  env: Record<string, string | undefined>;
  /**
   * A built agent's directory (its executable's): the default root, and what a relative root
   * of its embedded config is relative to. Absent for a program run.
   */
  agentDir?: string;
  /** Whether the config was given at run time (`--config`): relative roots follow that file. */
  configGiven?: boolean;
}

export function resolveStdSettings({ config, programDir, env, agentDir, configGiven }: StdSettingsInput): StdSettings {
  const std = config.config.std ?? {};
  const configDir = agentDir !== undefined && !configGiven ? agentDir : config.path ? dirname(config.path) : config.projectDir;
  const filesRoot = std.files_root === undefined ? (agentDir ?? programDir) : resolve(configDir, std.files_root);
  const httpHosts = (std.http_hosts ?? []).map((h) => h.toLowerCase());
  const headersEnv = std.http_headers_env ?? {};
  const stray = Object.keys(headersEnv).filter((h) => !httpHosts.includes(h.toLowerCase()));
  if (stray.length > 0) {
    throw startupError(`luma.config.json: 'std.http_headers_env' names ${stray.map((h) => `"${h}"`).join(", ")}, which 'std.http_hosts' does not list.`, { catalogCode: "E1302" });
  }
  return { filesRoot, httpHosts, headersEnv, env };
}

/** E1301, at start-up of a program that imports a file tool: the root must be an existing directory. */
export function requireFilesRoot(settings: StdSettings, configured: boolean): void {
  let isDir = false;
  try {
    isDir = statSync(settings.filesRoot).isDirectory();
  } catch {
    isDir = false;
  }
  if (isDir) return;
  const what = configured ? "'std.files_root'" : "the default files root (the program's directory)";
  throw startupError(`luma.config.json: ${what} is not a directory: ${settings.filesRoot}.`, { catalogCode: "E1301" });
}

/** TOOL_PERMISSION_DENIED naming the config key that would allow the call; never retryable. */
export const refused = (tool: string, what: string, key: string): LumaError =>
  runtimeError("TOOL_PERMISSION_DENIED", `Tool '${tool}' refused ${what}: see luma.config.json '${key}'.`, { retryable: false, details: { key } });

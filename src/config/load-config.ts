/**
 * Finds, parses, validates and normalises `luma.config.json` (spec §10).
 *
 * Lookup: `--config PATH` (relative to the working directory; missing is an error), else
 * `luma.config.json` beside the program, else the defaults. Every problem of the file is
 * reported in one startup error, one per line, each naming the file and the key path —
 * fixing a config one complaint per run is the kind of loop this avoids.
 */
// Sync fs on purpose: node:fs/promises costs ~2.5 ms of start-up in the compiled binary.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { startupError } from "../diagnostics/luma-error";
import { lineColOf } from "../diagnostics/source-position";
import { CONFIG_SCHEMA } from "./config-schema";
import type { LoadedConfig, LumaConfig, ToolModuleEntry } from "./config-types";
import { isInsideDirectory } from "./inside-directory";
import { findJsonSyntaxProblem } from "./json-syntax-error";
import { checkShape, childPath } from "./shape-rules";

export const CONFIG_FILE_NAME = "luma.config.json";

export const defaultConfig = (): LumaConfig => ({ tool_modules: [], tool_contexts: {} });

export interface LoadConfigOptions {
  /** `--config PATH`, relative to `cwd`. */
  configPath?: string;
  /** The directory of the `.luma` file. */
  programDir: string;
  /** Defaults to `process.cwd()`. */
  cwd?: string;
}

export async function loadConfig(opts: LoadConfigOptions): Promise<LoadedConfig> {
  const cwd = opts.cwd ?? process.cwd();
  const programDir = resolve(cwd, opts.programDir);
  const explicit = opts.configPath !== undefined;
  const file = explicit ? resolve(cwd, opts.configPath!) : join(programDir, CONFIG_FILE_NAME);
  // Messages name the file the way the user knows it: as typed, or by its well-known name.
  const shown = explicit ? opts.configPath! : CONFIG_FILE_NAME;

  const text = await readConfigText(file, shown, explicit);
  if (text === undefined) return { config: defaultConfig(), projectDir: programDir };

  const projectDir = dirname(file);
  const raw = parseJson(text, shown);
  const problems = checkShape(CONFIG_SCHEMA, raw, "");
  const config = problems.length === 0 ? normalise(raw as RawConfig) : undefined;
  if (config) problems.push(...dependencyRootProblems(config, programDir, projectDir));
  if (problems.length > 0) {
    const code = config ? "E0405" : "E0401"; // the dependency_root check runs only on a well-shaped config
    throw startupError(problems.map((p) => `${shown}: ${p}`).join("\n"), { catalogCode: code });
  }
  return { config: config!, projectDir, path: file };
}

/** The file's text; undefined when an implicit config simply is not there. */
async function readConfigText(file: string, shown: string, explicit: boolean): Promise<string | undefined> {
  try {
    // A UTF-8 byte order mark (Windows editors write one) is not JSON: JSON.parse rejects it.
    const text = readFileSync(file, "utf8");
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !explicit) return undefined;
    if (code === "ENOENT") throw startupError(`Config file not found: ${shown}`, { catalogCode: "E0403" });
    if (code === "EISDIR") throw startupError(`Config file ${shown} is a directory, not a file.`, { catalogCode: "E0404" });
    throw startupError(`Config file ${shown} could not be read: ${(e as Error).message}`, { catalogCode: "E0404" });
  }
}

function parseJson(text: string, shown: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const problem = findJsonSyntaxProblem(text);
    if (!problem) throw startupError(`${shown}: invalid JSON: ${(e as Error).message}`, { catalogCode: "E0402" });
    const { line, col } = lineColOf(text, problem.offset);
    throw startupError(`${shown}:${line}:${col}: invalid JSON: ${problem.reason}`, { catalogCode: "E0402" });
  }
}

type RawConfig = Omit<Partial<LumaConfig>, "tool_modules"> & { tool_modules?: (string | ToolModuleEntry)[] };

/** Defaults filled in; the short form `"./tools.ts"` becomes `{ path: "./tools.ts" }`. */
function normalise(raw: RawConfig): LumaConfig {
  const config: LumaConfig = {
    tool_modules: (raw.tool_modules ?? []).map((entry) => (typeof entry === "string" ? { path: entry } : { ...entry })),
    tool_contexts: raw.tool_contexts ?? {},
  };
  if (raw.tool_module_policy) config.tool_module_policy = raw.tool_module_policy;
  if (raw.idempotency_store) config.idempotency_store = raw.idempotency_store;
  if (raw.threads) config.threads = raw.threads;
  if (raw.mcp_servers) config.mcp_servers = raw.mcp_servers;
  if (raw.mcp_serve) config.mcp_serve = raw.mcp_serve;
  if (raw.journal) config.journal = raw.journal;
  if (raw.replay !== undefined) config.replay = raw.replay;
  if (raw.parallel_limit !== undefined) config.parallel_limit = raw.parallel_limit;
  if (raw.max_agent_depth !== undefined) config.max_agent_depth = raw.max_agent_depth;
  if (raw.std) config.std = raw.std;
  return config;
}

/** `dependency_root` is relative to the program's directory, like `path`, and cannot leave the project. */
function dependencyRootProblems(config: LumaConfig, programDir: string, projectDir: string): string[] {
  return config.tool_modules.flatMap((entry, i) => {
    if (entry.dependency_root === undefined) return [];
    const inside = isInsideDirectory(projectDir, resolve(programDir, entry.dependency_root));
    const key = childPath(childPath("tool_modules", i), "dependency_root");
    return inside ? [] : [`'${key}' must stay inside the project directory (got ${JSON.stringify(entry.dependency_root)})`];
  });
}

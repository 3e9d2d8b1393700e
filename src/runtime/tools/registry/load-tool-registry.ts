/**
 * The one call the runtime makes at startup to get its tool registry: resolve the
 * `tool_module_policy` block (say what it will not do), load every tool module under it,
 * build the registry. Every failure is a startup error (exit code 2).
 *
 * The module loaders (node:vm, node:module, the transpiler, the strict policy) are imported
 * only when there is a module to load: a program run without `--tool-module` and without
 * `tool_modules` never pays for them. The same holds for the MCP client: the composition
 * root plugs it in (`openRemoteTools`), and it is loaded, and the servers connected, only
 * when a tool declares `mcp:`.
 */
import type { AskValue } from "../tool-invoker-types";
import { dirname, resolve } from "node:path";
import { entryOf } from "../../../language/keys/key-spec";
import { TOOL_KEYS } from "../../../language/keys/tool-keys";
import type { LoadedConfig } from "../../../config/config-types";
import type { Program } from "../../../syntax/ast";
import type { LoadedModule } from "../../module-loading/loaded-module";
import { moduleRequests } from "../../module-loading/module-requests";
import { policyNotices, resolveModulePolicy, type ModulePolicy } from "../../module-policy/module-policy";
import { buildRegistry } from "./build-registry";
import type { LateRunParts, OpenRemoteTools, ToolRegistry, ToolStubs } from "./registry-types";
import type { StdSettings } from "../std/std-settings";

export interface LoadToolRegistryOptions {
  program: Program;
  config: LoadedConfig;
  /** `--tool-module` values, relative to `cwd`. */
  cliModules: string[];
  cwd: string;
  /**
   * Where config `tool_modules` paths are relative to: the caller's program directory
   * (start-up already has it); only when absent is it derived from `program.file`.
   */
  programDir?: string;
  /** The person at the terminal, for MCP servers' elicitation requests; absent when the run is not interactive. */
  askPerson?: AskValue;
  /** The run has a journal (durable run). */
  journaled?: boolean;
  /** Where one-line start-up notices go (e.g. `max_memory_mb` is not enforced); stderr in the CLI. */
  notice?: (line: string) => void;
  /**
   * A built agent's tool modules (src/build): bundled and judged at build time, they load
   * from memory under the run's policy instead of from the requests' files.
   */
  loadEmbedded?: (policy: ModulePolicy | undefined) => Promise<LoadedModule[]>;
  /** The environment MCP servers are started with (`env` entries are added to it); process.env when absent. */
  env?: Record<string, string | undefined>;
  /**
   * The source of `mcp:` tools' handlers — the MCP client (mcp/open-mcp-tools.ts), plugged in
   * by the composition root; needed only by a program that declares an `mcp:` tool.
   */
  openRemoteTools?: OpenRemoteTools;
  /** Late-bound models for MCP servers' sampling requests (filled by open-program.ts once `ask` exists). */
  models?: LateRunParts;
  /** `luma test`'s tool stubs (testing/tool-stubs.ts): they answer in place of any handler. */
  stubs?: ToolStubs;
  /** Where luma:std's tools may reach (tools/std/std-settings.ts). */
  std?: StdSettings;
}

export async function loadToolRegistry(opts: LoadToolRegistryOptions): Promise<ToolRegistry> {
  const { policy, modules } = await loadRequestedModules(opts);
  // `sandbox: "process"`: the modules' children stop with the registry.
  const hosted = modules.filter((m) => m.close !== undefined);
  if (hosted.length === 0) return registryOf(opts, policy, modules);
  const closeChildren = () => hosted.forEach((m) => m.close!());
  try {
    const registry = await registryOf(opts, policy, modules);
    const closeRest = registry.close;
    return { ...registry, close: async () => (closeChildren(), await closeRest?.()) };
  } catch (e) {
    closeChildren();
    throw e;
  }
}

async function registryOf(opts: LoadToolRegistryOptions, policy: ModulePolicy | undefined, modules: LoadedModule[]): Promise<ToolRegistry> {
  // MCP clients (the SDK) load only for a program that declares an `mcp:` tool.
  const usesMcp = opts.program.decls.some((d) => d.kind === "Tool" && entryOf(TOOL_KEYS, d.options, "mcp") !== undefined);
  if (!usesMcp) return buildRegistry({ program: opts.program, modules, maxConcurrency: policy?.maxConcurrency, stubs: opts.stubs, std: opts.std });
  if (opts.openRemoteTools === undefined) throw new Error("internal: the program declares an mcp: tool, but no MCP tool source was plugged in (openRemoteTools)");
  const source = await opts.openRemoteTools({
    program: opts.program,
    config: opts.config.config,
    projectDir: opts.config.projectDir,
    env: opts.env ?? process.env,
    notice: opts.notice,
    askPerson: opts.askPerson,
    journaled: opts.journaled,
    models: opts.models,
  });
  try {
    const registry = buildRegistry({ program: opts.program, modules, maxConcurrency: policy?.maxConcurrency, remote: source, stubs: opts.stubs, std: opts.std });
    return { ...registry, close: source.close };
  } catch (e) {
    await source.close();
    throw e;
  }
}

/** The policy and the loaded modules, before the registry (`luma build` embeds these modules). */
export async function loadRequestedModules(
  opts: LoadToolRegistryOptions,
): Promise<{ policy: ModulePolicy | undefined; modules: LoadedModule[] }> {
  const policy = resolveModulePolicy(opts.config);
  if (policy) for (const line of policyNotices(policy, opts.config.config.tool_module_policy!)) opts.notice?.(line);
  if (opts.loadEmbedded) return { policy, modules: await opts.loadEmbedded(policy) };
  const programDir = opts.programDir ?? dirname(resolve(opts.cwd, opts.program.file));
  const requests = moduleRequests({ config: opts.config, programDir, cliModules: opts.cliModules, cwd: opts.cwd });
  let modules: LoadedModule[] = [];
  if (requests.length > 0) {
    const { loadToolModules } = await import("./load-tool-modules");
    modules = await loadToolModules(requests, policy, opts.env);
  }
  return { policy, modules };
}

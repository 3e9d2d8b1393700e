/**
 * Builds the tool registry from the program's declarations and the loaded modules (spec §10).
 *
 * - Defaults from `src/tool-registry.ts` fill in first; a user module may replace one.
 * - Two user modules giving the same declared tool is a conflict, *exact*:
 *   `Tool registry conflict: calculate.`
 * - Exports that match no declaration are ignored (they never reach the registry, so they
 *   cannot conflict either).
 * - A declared tool left without a handler stops the program, *exact*:
 *   `'calculate' is not registered in the tool registry.` For a tool declared with
 *   `mcp: "docs"` the message goes on to name the server that lacks it.
 * - A client tool (`handler: "client"`) has no handler: the caller answers it
 *   (steps/client-answer.ts). It is never missing, and a module exporting one for it is
 *   refused (E0657): the program says the caller answers, so the module's would never run.
 * - Handlers of `mcp:` tools come from their MCP server (`remote`) and count as one more
 *   module: a tool module exporting the same tool is a conflict.
 * - A tool declared by `luma:std` (its span's file) is served by the standard handlers
 *   (`tools/std/`), bound to the run's `std` settings; a module exporting one is a conflict
 *   like two modules are, and a `luma test` stub still answers in its place.
 * - Under a `tool_module_policy` block, every handler and bridge of a module goes behind that
 *   module's semaphore (`max_concurrency`, spec §10): the pipeline calls handlers through
 *   the registry, so the limit holds for every caller.
 */
import { startupError } from "../../../diagnostics/luma-error";
import type { Program, ToolDecl } from "../../../syntax/ast";
import { readToolOptions } from "../steps/tool-options";
import { defaultToolHandlers } from "../../../tool-registry";
import type { LoadedModule } from "../../module-loading/loaded-module";
import { readModuleTools } from "./export-shape";
import { limitCalls, Semaphore } from "../../module-policy/module-semaphore";
import { STD_MODULE, isStdToolName } from "../../../language/std-tools";
import { STD_HANDLERS } from "../std/std-handlers";
import type { StdSettings } from "../std/std-settings";
import { BUILTIN_MODULE, type DatasourceBridge, type RemoteHandlers, type ToolHandler, type ToolRegistry, type ToolStubs } from "./registry-types";

/** Where a stubbed tool's handler comes from, for messages that name a tool's module. */
const STUB_MODULE = "luma:test-stub";

interface Provided<T> {
  value: T;
  module: string;
}

export interface BuildRegistryOptions {
  program: Program;
  modules: LoadedModule[];
  /** Per-module concurrent-call limit; undefined without a `tool_module_policy` block (no limit). */
  maxConcurrency?: number;
  /** Handlers served by MCP servers (tools declared with `mcp:`). */
  remote?: RemoteHandlers;
  /** `luma test`'s tool stubs: each answers in place of the tool's handler, which then need not exist. */
  stubs?: ToolStubs;
  /** Where luma:std's tools may reach; absent where the registry is only judged (`luma build`), never called. */
  std?: StdSettings;
}

/** Reaches nothing: no files root that exists, no host. */
const NO_STD_REACH: StdSettings = { filesRoot: "/nonexistent/luma-std-root", httpHosts: [], headersEnv: {}, env: {} };

const declaredNames = (program: Program, kind: "Tool" | "Datasource"): string[] =>
  program.decls.filter((decl) => decl.kind === kind).map((decl) => decl.name);

/** Tools declared `handler: "client"`: the caller answers them. */
const clientToolNames = (program: Program): Set<string> =>
  new Set(program.decls.filter((d) => d.kind === "Tool" && readToolOptions(d as ToolDecl).handler === "client").map((d) => d.name));

const toolDecl = (program: Program, name: string): ToolDecl | undefined =>
  program.decls.find((d): d is ToolDecl => d.kind === "Tool" && d.name === name);

export function buildRegistry({ program, modules, maxConcurrency, remote, stubs, std }: BuildRegistryOptions): ToolRegistry {
  const clientTools = clientToolNames(program);
  const tools = declaredNames(program, "Tool").filter((name) => !clientTools.has(name));
  const datasourceNames = new Set(declaredNames(program, "Datasource"));
  const declaredTools = new Set(tools);

  const handlers = new Map<string, Provided<ToolHandler>>();
  for (const name of tools) {
    if (Object.hasOwn(defaultToolHandlers, name)) handlers.set(name, { value: defaultToolHandlers[name], module: BUILTIN_MODULE });
    if (isStdToolName(name) && toolDecl(program, name)?.span.file === STD_MODULE) {
      handlers.set(name, { value: STD_HANDLERS[name](std ?? NO_STD_REACH), module: STD_MODULE });
    }
  }
  for (const [name, provided] of remote?.handlers ?? []) if (declaredTools.has(name)) handlers.set(name, provided);
  const bridges = new Map<string, Provided<DatasourceBridge>>();
  const toolConflicts = new Set<string>();
  const bridgeConflicts = new Set<string>();

  for (const module of modules) {
    const provided = readModuleTools(module);
    const semaphore = maxConcurrency === undefined ? undefined : new Semaphore(maxConcurrency);
    const limit = <F extends ToolHandler | DatasourceBridge>(fn: F): F => (semaphore ? limitCalls(fn as never, semaphore) : fn);
    for (const [name, handler] of provided.handlers) {
      if (clientTools.has(name)) {
        throw startupError(`Tool '${name}' is answered by the client (handler: "client"), but tool module ${module.realPath} exports a handler for it: remove the export, or the handler key.`, { catalogCode: "E0657" });
      }
      if (!declaredTools.has(name)) continue;
      const earlier = handlers.get(name);
      if (earlier && earlier.module !== BUILTIN_MODULE) toolConflicts.add(name);
      else handlers.set(name, { value: limit(handler), module: module.realPath });
      // `sandbox: "process"`: the child gets a tool's credential with that tool's calls only.
      const credential = module.credentials && toolDecl(program, name) && readToolOptions(toolDecl(program, name)!).credential;
      if (credential) module.credentials!.set(name, credential);
    }
    for (const [name, bridge] of provided.datasources) {
      if (!datasourceNames.has(name)) continue;
      if (bridges.has(name)) bridgeConflicts.add(name);
      else bridges.set(name, { value: limit(bridge), module: module.realPath });
    }
  }

  for (const [name, stub] of stubs?.handlers ?? []) {
    if (!declaredTools.has(name)) continue;
    handlers.set(name, { value: stub, module: STUB_MODULE });
    toolConflicts.delete(name);
  }

  const conflicts = [
    ...[...toolConflicts].map((name) => `Tool registry conflict: ${name}.`),
    ...[...bridgeConflicts].map((name) => `Datasource bridge conflict: ${name}.`),
  ];
  if (conflicts.length > 0) throw startupError(conflicts.join("\n"), { catalogCode: "E0602" });

  const missing = tools.filter((name) => !handlers.has(name) && !stubs?.stubbedInFile.has(name));
  if (missing.length > 0) {
    const why = (name: string) => {
      const reason = remote?.notOffered.get(name);
      return reason === undefined ? "" : `: ${reason}`;
    };
    throw startupError(missing.map((name) => `'${name}' is not registered in the tool registry${why(name)}.`).join("\n"), { catalogCode: "E0601" });
  }

  return {
    handler: (name) => handlers.get(name)?.value,
    datasource: (name) => bridges.get(name)?.value,
    moduleOf: (name) => handlers.get(name)?.module ?? bridges.get(name)?.module,
  };
}

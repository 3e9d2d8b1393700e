/** The tool registry the call pipeline looks handlers up in (spec §9 step 1, §10). */
import type { DatasourceBridge, ToolHandler } from "../../../luma-module";
import type { LumaConfig } from "../../../config/config-types";
import type { Program } from "../../../syntax/ast";
import type { AskValue } from "../tool-invoker-types";

export type { DatasourceBridge, ToolHandler };

/** `moduleOf` answers this for a built-in default handler from `src/tool-registry.ts`. */
export const BUILTIN_MODULE = "luma:builtin";

export interface ToolRegistry {
  /** The handler of a declared tool; undefined for a name the program does not declare. */
  handler(name: string): ToolHandler | undefined;
  /** The bridge a module exported under `datasources` for a declared datasource (spec §12). */
  datasource(name: string): DatasourceBridge | undefined;
  /** The real path of the module that provides `name` (a tool or a datasource), or BUILTIN_MODULE. */
  moduleOf(name: string): string | undefined;
  /** Releases what the handlers hold open (MCP server connections); absent when nothing is. */
  close?(): Promise<void>;
}

/**
 * Handlers that live outside tool modules — tools declared with `mcp: "server"`, served by
 * an MCP server (src/mcp/mcp-tool-source.ts). `module` is how `moduleOf` names their home
 * (`mcp:docs`); `notOffered` says, per tool the server lacks, why it has no handler.
 */
/** `luma test`'s tool stubs (testing/tool-stubs.ts). */
export interface ToolStubs {
  /** This test's stubs: each answers in place of its tool's handler. */
  handlers: ReadonlyMap<string, ToolHandler>;
  /** Tools stubbed in some test of the file: they may lack a handler (a call without a stub or one is TOOL_NOT_FOUND). */
  stubbedInFile: ReadonlySet<string>;
}

export interface RemoteHandlers {
  handlers: ReadonlyMap<string, { value: ToolHandler; module: string }>;
  notOffered: ReadonlyMap<string, string>;
}

/** Remote handlers and what keeps them reachable (server connections), released by `close`. */
export interface RemoteToolSource extends RemoteHandlers {
  close(): Promise<void>;
}

/** One message of a server's sampling request, as text (what a model is asked with). */
export interface SampledMessage {
  role: "user" | "assistant";
  text: string;
}

/**
 * One answer of a program model for an MCP server's `sampling/createMessage`, through the
 * run's `ask` (runtime/ask/sample-with-model.ts): the provider path, the trace, `--usage`.
 */
export type SampleWithModel = (req: { server: string; model: string; system?: string; messages: readonly SampledMessage[]; signal?: AbortSignal }) => Promise<{ text: string }>;

/**
 * What a run hands its MCP servers once it exists: the servers connect (with the tools)
 * before the trace and the model machinery are opened, so this starts empty and is filled
 * right after `ask`. `sample` stays absent in a program without models; `approve` is the
 * terminal's prompt; `trace` is absent without `--trace` (and OpenTelemetry).
 */
export interface LateRunParts {
  sample?: SampleWithModel;
  trace?: (event: object) => void;
  approve?: (tool: string, args: string, withinMs: number, writes?: boolean) => Promise<boolean>;
}

/**
 * Opens the remote handlers of a program's `mcp:` tools (connects the servers, checks the
 * contracts). The runtime only declares it: the composition root (src/index.ts, cli/, the MCP
 * server) plugs in the MCP client (mcp/open-mcp-tools.ts), so the runtime imports nothing of mcp/.
 */
export type OpenRemoteTools = (opts: {
  program: Program;
  config: LumaConfig;
  /** The config file's directory: stdio servers run there. */
  projectDir: string;
  env: Record<string, string | undefined>;
  /** One line for the person (an MCP server's authorization URL to open). */
  notice?: (line: string) => void;
  /** Asks the person at the terminal (an MCP server's elicitation); absent when nobody can be asked. */
  askPerson?: AskValue;
  /** The run has a journal: servers' questions nobody answers live wait in it. */
  journaled?: boolean;
  /** Filled once the run's `ask` exists: answers the servers' sampling requests (`mcp_servers.<name>.sampling`). */
  models?: LateRunParts;
}) => Promise<RemoteToolSource>;

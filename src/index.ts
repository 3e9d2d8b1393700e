/**
 * The Luma library API: `checkFile`, `generateTypesForFile`, `runFile`. It never prints
 * and never exits: results are returned, failures are thrown as LumaErrors (the CLI in
 * `src/cli/` decides how they look and which exit code they mean).
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Diagnostic } from "./diagnostics/diagnostic";
import { startupError } from "./diagnostics/luma-error";
import { checkProgram, loadProgram, readSource } from "./load/load-program";
import { loadTestProgram, testedFileOf } from "./load/load-test-program";
import type { StartOptions } from "./runtime/start-program";
import type { ChatOptions, ChatSession } from "./runtime/chat-session";
import { openMcpTools } from "./mcp/open-mcp-tools";

import type { Program } from "./syntax/ast";

export { LumaError } from "./diagnostics/luma-error";
export type { Program } from "./syntax/ast";

interface SourceMemo {
  /** Filled with every source read, so the CLI can render diagnostics and runtime locations. */
  sources?: Map<string, string>;
  env?: Record<string, string | undefined>;
}

/** The file's text, kept in the memo for rendering. */
function readInto(file: string, memo: SourceMemo): string {
  const source = readSource(file);
  memo.sources?.set(file, source);
  return source;
}

async function load(file: string, memo: SourceMemo) {
  return loadProgram(file, { source: readInto(file, memo), env: memo.env, sources: memo.sources });
}

/**
 * What `luma serve`, `luma mcp` and `luma chat` serve: a built agent's program (`program`,
 * checked when it was built; its sources and warnings are the caller's), else FILE's, loaded
 * and checked now with its warnings reported.
 */
export interface ServedProgram {
  /** A built agent's embedded program (cli/run-built-agent.ts, `OUT --luma-serve` and the like): FILE is not read. */
  program?: Program;
  onWarnings?: (warnings: Diagnostic[]) => void;
}

async function servedProgram(opts: ServedProgram & SourceMemo & { file: string }): Promise<{ program: Program; sources: Map<string, string> }> {
  const sources = opts.sources ?? new Map<string, string>();
  if (opts.program) return { program: opts.program, sources };
  const loaded = await load(opts.file, { sources, env: opts.env });
  if (loaded.diagnostics.length) opts.onWarnings?.(loaded.diagnostics);
  return { program: loaded.program, sources };
}

/** The words runtime/program-rules.ts's rules are about: `needs` (E0604), `tool_contexts` (E0616), `model` (E0615, E0617), `thread` (E0660). */
const PROGRAM_RULE_WORDS = /\b(needs|tool_contexts|model|thread)\b/;

/**
 * Parse and check only (`luma check`). Returns the warnings; throws when rejected.
 * `NAME.test.luma` is checked with `NAME.luma`'s declarations, as `luma test` runs it.
 */
export async function checkFile(file: string, memo: SourceMemo = {}): Promise<{ warnings: Diagnostic[] }> {
  if (testedFileOf(file) !== undefined) {
    const loaded = await loadTestProgram(file, memo.sources ?? new Map(), { keepStatements: true });
    return { warnings: loaded.diagnostics };
  }
  const source = readInto(file, memo);
  // A source without the words those rules are about cannot break one: a cached clean program
  // then answers from its entry's presence, as before (the entry is not even read).
  if (!PROGRAM_RULE_WORDS.test(source)) return { warnings: await checkProgram(file, { source, env: memo.env, sources: memo.sources }) };
  const { program, diagnostics } = await loadProgram(file, { source, env: memo.env, sources: memo.sources });
  // What a run would refuse at start-up from the program and its config alone, check refuses too.
  const ruleError = await (await import("./runtime/program-rules")).programRuleErrorOf(program, file);
  if (ruleError) throw ruleError;
  return { warnings: diagnostics };
}

/** `--generate-tool-types OUT`: write the .d.ts for the program's tools; the program does not run. */
export async function generateTypesForFile(file: string, out: string, memo: SourceMemo = {}): Promise<string> {
  const { program } = await load(file, memo);
  const { generateToolTypes } = await import("./typegen/generate-tool-types");
  const text = generateToolTypes(program);
  try {
    writeFileSync(resolve(out), text);
  } catch (e) {
    throw startupError(`cannot write ${out}: ${(e as Error).message}`, { catalogCode: "E0611" });
  }
  return text;
}

export type RunFileOptions = Omit<StartOptions, "sourceOf" | "openRemoteTools"> &
  SourceMemo & {
    /** The checker's warnings, before the program runs (the CLI renders them with their source line). */
    onWarnings?: (warnings: Diagnostic[]) => void;
  };

/** Load, check and run a program file. */
export async function runFile(opts: RunFileOptions): Promise<void> {
  const sources = opts.sources ?? new Map<string, string>();
  // `sandbox: "process"`: the modules' children start now, idle, and start up while the
  // program is parsed and checked; the load claims them, or they are stopped (early-start.ts).
  const early = await import("./runtime/tools/process-host/early-start");
  await (await import("./runtime/tools/process-host/start-children-early")).startChildrenEarly(opts);
  try {
    const loaded = await load(opts.file, { sources, env: opts.env });
    if (loaded.diagnostics.length) opts.onWarnings?.(loaded.diagnostics);
    // Imported here, not at the top: `luma --version`, `--help` and `check` never load the runtime.
    const { startProgram } = await import("./runtime/start-program");
    // The library is a composition root: it plugs the MCP client in (loaded only for `mcp:` tools).
    await startProgram(loaded.program, { ...opts, sourceOf: (f) => sources.get(f), openRemoteTools: openMcpTools });
  } finally {
    early.stopUnclaimed();
  }
}

export type ServeMcpOptions = Omit<StartOptions, "args" | "interactive" | "approve" | "askValue" | "openRemoteTools" | "sourceOf" | "record" | "replay" | "askHooks"> &
  SourceMemo &
  ServedProgram & {
    /** Serve this agent's tools and methods, under its settings; every tool and method when absent. */
    agent?: string;
    /** `--agent-args`: the JSON object of the served agent's parameters. */
    agentArgs?: string;
    /** `HOST:PORT` for Streamable HTTP; stdio when absent. */
    http?: string;
    /** Comma-separated `host` or `host:port` clients use with `http` (needed off loopback, with LUMA_MCP_TOKEN). */
    allowedHosts?: string;
    /** The checker's warnings (the CLI renders them on stderr: stdout may be the protocol). */
    onWarnings?: (warnings: Diagnostic[]) => void;
  };

/** `luma mcp FILE`: load and check the program, then serve it over MCP until the client leaves. */
export async function serveMcp(opts: ServeMcpOptions): Promise<void> {
  const { program, sources } = await servedProgram(opts);
  const { serveProgram } = await import("./mcp/mcp-server");
  await serveProgram(program, { ...opts, sourceOf: (f) => sources.get(f) });
}

export type ServeHttpFileOptions = Omit<StartOptions, "args" | "interactive" | "approve" | "askValue" | "openRemoteTools" | "sourceOf" | "record" | "replay" | "askHooks"> &
  SourceMemo &
  ServedProgram & {
    /** `HOST:PORT` to listen at (default 127.0.0.1:8787). */
    http?: string;
    /** Serve only these agents; every agent without parameters when empty. */
    agents: string[];
    /** The one browser origin allowed to call (CORS). */
    cors?: string;
    /** `--agent-args AGENT=JSON`: fixed parameters of served agents declared with them. */
    agentArgs?: string[];
    onWarnings?: (warnings: Diagnostic[]) => void;
  };

/** `luma serve FILE`: load and check the program, then serve its agents over HTTP until SIGTERM/SIGINT. */
export async function serveHttp(opts: ServeHttpFileOptions): Promise<void> {
  const { program, sources } = await servedProgram(opts);
  const { serveHttpProgram } = await import("./serve/serve-program");
  await serveHttpProgram(program, { ...opts, sourceOf: (f) => sources.get(f) });
}

export type ChatHost = Omit<StartOptions, "args" | "sourceOf" | "file" | "toolModules"> & SourceMemo & ServedProgram & { sources: Map<string, string> };
export type ChatFileOptions = ChatHost &
  Omit<ChatOptions, keyof StartOptions> & { file: string; toolModules: string[]; configPath?: string; trace?: string; record?: string; replay?: string };

/** `luma chat FILE --agent A`: load and check the program, then open a chat session on it (its top-level code does not run). */
export async function chatFile(opts: ChatFileOptions): Promise<ChatSession> {
  const { program, sources } = await servedProgram(opts);
  const { openChat } = await import("./runtime/chat-session");
  return openChat(program, { ...opts, sourceOf: (f) => sources.get(f), openRemoteTools: openMcpTools });
}

/** `luma mcp import NAME`: Luma declarations (text) for every tool the configured server offers. */
export async function importMcpTools(opts: { server: string; configPath?: string; cwd: string; env: Record<string, string | undefined>; notice?: (line: string) => void }): Promise<string> {
  const { importServerTools } = await import("./mcp/import-tools");
  return importServerTools(opts);
}

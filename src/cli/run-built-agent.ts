/**
 * The built agent's command line: `OUT [ARGS…]` runs the embedded program as `luma FILE
 * [ARGS…]` would. Luma's run-time options keep their meaning (`--config` overrides the
 * embedded config; `--trace`, `--journal`, `--usage`… as for `luma`): they reach startProgram
 * through the same `runTimeOptions` as `luma FILE`'s, so the two cannot drift apart. The
 * build-time ones (`--tool-module`, `--generate-tool-types`) are usage errors. `OUT --help` names the program,
 * `OUT --luma-manifest` prints what the file embeds. Everything else goes to the program's
 * `args`, as after FILE for `luma` (`--` ends option parsing).
 *
 * `OUT --luma-serve|--luma-chat|--luma-mcp …` put the program behind a server: each is `luma
 * serve|chat|mcp FILE …` with the program's file as FILE, parsed by that command's own parser
 * and rows (so its options cannot drift from luma's), and served by the same library entry
 * point given the embedded program (checked at build: not parsed again) and the build's start
 * (embedded config, tool modules, cassette) instead of FILE. Only a first argument is one of
 * these: a program's own `serve` or `--luma-serve` after other arguments stays in its `args`.
 */
import { basename } from "node:path";
import { parseArgv, RUN_TIME_OPTIONS, runTimeOptions, UsageError, type ChatCommand, type McpServeCommand, type ServeCommand } from "./argv";
import { optionLines } from "./help-text";
import { COMMAND_TABLE, LUMA_MANIFEST_OPTION, LUMA_SERVING_OPTIONS, type OptionRow } from "./command-table-argv";
import { parseServeArgv } from "./serve-argv";
import { parseChatArgv } from "./chat-argv";
import { parseMcpArgv } from "./mcp-argv";
import { EXIT } from "./report-error";
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { BuiltAgentStart, StartOptions } from "../runtime/start-program";
import type { AgentPayload } from "../build/agent-payload";
import { embeddedStart } from "../build/embedded-start";
import { openMcpTools } from "../mcp/open-mcp-tools";

export type AgentHost = Pick<StartOptions, "cwd" | "env" | "stdout" | "stdoutText" | "stderr" | "interactive" | "approve" | "askValue" | "stdin"> & {
  sources: Map<string, string>;
  onWarnings: (warnings: Diagnostic[]) => void;
};

type ServingOption = keyof typeof LUMA_SERVING_OPTIONS;
type ServedCommand = ServeCommand | ChatCommand | McpServeCommand;
/** Each served command's own parser: `OUT --luma-serve …` parses as `luma serve FILE …`. */
const SERVING_PARSERS: Record<ServedCommand["kind"], (argv: string[]) => ServedCommand> = {
  serve: parseServeArgv,
  chat: parseChatArgv,
  mcp: (argv) => parseMcpArgv(argv) as McpServeCommand,
};
const isServingOption = (arg: string | undefined): arg is ServingOption => arg !== undefined && Object.hasOwn(LUMA_SERVING_OPTIONS, arg);

/** `OUT --luma-serve [--http HOST:PORT] …`: a command's usage from its table rows, less the build-time ones. */
function servingUsage(name: string, option: ServingOption): string {
  const entry = COMMAND_TABLE[LUMA_SERVING_OPTIONS[option]];
  const shown = (r: OptionRow) => `${r.name}${r.metavar ? ` ${r.metavar}` : ""}`;
  const rows = entry.options.filter((r) => !r.buildTime).map((r) => (r.required ? shown(r) : `[${shown(r)}]${r.repeatable ? "…" : ""}`));
  return `  ${name} ${option} ${rows.join(" ")}\n      ${entry.summary}, as \`luma ${entry.words} FILE\``;
}

function agentHelp(agent: AgentPayload): string {
  const name = basename(process.execPath);
  return `${name} — the Luma program ${agent.file}, built with luma ${agent.manifest.luma_version}

Usage:
  ${name} [ARGS…]            run the program (ARGS become \`args\`; \`--\` ends option parsing)
${(Object.keys(LUMA_SERVING_OPTIONS) as ServingOption[]).map((o) => servingUsage(name, o)).join("\n")}
  ${name} --luma-manifest    print what this file embeds (JSON: program, config, tool modules, sha256)
  ${name} --help

Options of a run (anywhere before \`--\`; the serving lines take their command's, above):
${optionLines(RUN_TIME_OPTIONS)}

Read at run time, never embedded: environment variables (API keys, credentials, tool_contexts,
LUMA_APPROVED_TOOLS), the idempotency store and datasource URLs, the working directory.`;
}

const isGiven = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : value !== undefined);

/** The program's file takes FILE's place, so options and ARGS parse exactly as for `luma FILE …` (or `luma serve FILE …`…). */
function agentCommand(agent: AgentPayload, argv: string[]) {
  const [first, ...rest] = argv;
  const cmd = isServingOption(first) ? SERVING_PARSERS[LUMA_SERVING_OPTIONS[first]]([agent.file, ...rest]) : parseArgv([agent.file, ...argv]);
  if (cmd.kind !== "run" && !isServingOption(first)) return cmd;
  // The build-time options of the table (`--tool-module`, `--generate-tool-types`) were decided at build.
  const rows = COMMAND_TABLE[cmd.kind as "run" | ServedCommand["kind"]].options;
  const given = rows.find((row) => row.buildTime && isGiven((cmd as unknown as Record<string, unknown>)[row.field]));
  if (given) {
    const hint = cmd.kind === "run" ? "; pass -- before program arguments that look like options" : "";
    throw new UsageError(`${given.name} was decided when this agent was built (its tool modules are embedded)${hint}`);
  }
  return cmd;
}

/** `OUT --luma-serve|--luma-chat|--luma-mcp`: the library's `luma serve|chat|mcp FILE` entry point, on the embedded program. */
async function serveAgent(cmd: ServedCommand, agent: AgentPayload, builtAgent: BuiltAgentStart, host: AgentHost): Promise<number> {
  const embedded = { program: agent.program, builtAgent, toolModules: [], configPath: cmd.config };
  if (cmd.kind === "chat") {
    const { runChatCommand } = await import("./chat-command");
    return runChatCommand(cmd, { ...host, ...embedded, write: host.stdoutText ?? host.stdout, err: host.stderr });
  }
  const { serveHttp, serveMcp } = await import("../index");
  // As `luma serve|mcp FILE` get them from main.ts: no terminal, no stdin (MCP's stdio is the protocol's).
  const served = { cwd: host.cwd, env: host.env, stdout: host.stdout, stderr: host.stderr, sources: host.sources, ...embedded };
  if (cmd.kind === "serve") await serveHttp({ ...cmd, ...served });
  else await serveMcp({ ...cmd, ...served });
  return EXIT.ok;
}

export async function runBuiltAgent(agent: AgentPayload, argv: string[], host: AgentHost): Promise<number> {
  if (argv[0] === LUMA_MANIFEST_OPTION) {
    host.stdout(JSON.stringify(agent.manifest, null, 2));
    return 0;
  }
  let cmd: ReturnType<typeof parseArgv>;
  try {
    cmd = agentCommand(agent, argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    // The usage line names this executable, not `luma`: the user may never have heard of it.
    const name = basename(process.execPath);
    host.stderr(`${name}: ${e.message}\nRun '${name} --help' for usage.`);
    return EXIT.usage;
  }
  if (cmd.kind !== "run" && cmd.kind !== "serve" && cmd.kind !== "chat" && cmd.kind !== "mcp") {
    host.stdout(agentHelp(agent));
    return 0;
  }
  host.sources.set(agent.file, agent.source);
  for (const f of agent.imported ?? []) host.sources.set(f.file, f.source);
  if (agent.warnings.length > 0) host.onWarnings(agent.warnings);
  const builtAgent = embeddedStart(agent, host.cwd);
  if (cmd.kind !== "run") return serveAgent(cmd as ServedCommand, agent, builtAgent, host);
  const { startProgram } = await import("../runtime/start-program");
  await startProgram(agent.program, {
    ...host,
    file: agent.file,
    args: cmd.args,
    toolModules: [],
    ...runTimeOptions(cmd),
    sourceOf: (f) => host.sources.get(f),
    builtAgent,
    openRemoteTools: openMcpTools,
  });
  return 0;
}

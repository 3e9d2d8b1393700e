/**
 * The built agent's command line: `OUT [ARGS…]` runs the embedded program as `luma FILE
 * [ARGS…]` would. Luma's run-time options keep their meaning (`--config` overrides the
 * embedded config; `--trace`, `--journal`, `--usage`… as for `luma`): they reach startProgram
 * through the same `runTimeOptions` as `luma FILE`'s, so the two cannot drift apart. The
 * build-time ones (`--tool-module`, `--generate-tool-types`) are usage errors. `OUT --help` names the program,
 * `OUT --luma-manifest` prints what the file embeds. Everything else goes to the program's
 * `args`, as after FILE for `luma` (`--` ends option parsing).
 */
import { basename } from "node:path";
import { parseArgv, RUN_TIME_OPTIONS, runTimeOptions, UsageError } from "./argv";
import { optionLines } from "./help-text";
import { COMMAND_TABLE, LUMA_MANIFEST_OPTION } from "./command-table-argv";
import { EXIT } from "./report-error";
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { StartOptions } from "../runtime/start-program";
import type { AgentPayload } from "../build/agent-payload";
import { embeddedStart } from "../build/embedded-start";
import { openMcpTools } from "../mcp/open-mcp-tools";

export type AgentHost = Pick<StartOptions, "cwd" | "env" | "stdout" | "stderr" | "interactive" | "approve" | "askValue"> & {
  sources: Map<string, string>;
  onWarnings: (warnings: Diagnostic[]) => void;
};

function agentHelp(agent: AgentPayload): string {
  const name = basename(process.execPath);
  return `${name} — the Luma program ${agent.file}, built with luma ${agent.manifest.luma_version}

Usage:
  ${name} [ARGS…]            run the program (ARGS become \`args\`; \`--\` ends option parsing)
  ${name} --luma-manifest    print what this file embeds (JSON: program, config, tool modules, sha256)
  ${name} --help

Options (anywhere before \`--\`):
${optionLines(RUN_TIME_OPTIONS)}

Read at run time, never embedded: environment variables (API keys, credentials, tool_contexts,
LUMA_APPROVED_TOOLS), the idempotency store and datasource URLs, the working directory.`;
}

const isGiven = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : value !== undefined);

/** The program's file takes FILE's place, so options and ARGS parse exactly as for `luma FILE …`. */
function agentCommand(agent: AgentPayload, argv: string[]) {
  const cmd = parseArgv([agent.file, ...argv]);
  if (cmd.kind !== "run") return cmd;
  // The build-time options of the table (`--tool-module`, `--generate-tool-types`) were decided at build.
  const given = COMMAND_TABLE.run.options.find((row) => row.buildTime && isGiven((cmd as unknown as Record<string, unknown>)[row.field]));
  if (given) {
    throw new UsageError(`${given.name} was decided when this agent was built (its tool modules are embedded); pass -- before program arguments that look like options`);
  }
  return cmd;
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
  if (cmd.kind !== "run") {
    host.stdout(agentHelp(agent));
    return 0;
  }
  host.sources.set(agent.file, agent.source);
  for (const f of agent.imported ?? []) host.sources.set(f.file, f.source);
  if (agent.warnings.length > 0) host.onWarnings(agent.warnings);
  const { startProgram } = await import("../runtime/start-program");
  await startProgram(agent.program, {
    ...host,
    file: agent.file,
    args: cmd.args,
    toolModules: [],
    ...runTimeOptions(cmd),
    sourceOf: (f) => host.sources.get(f),
    builtAgent: embeddedStart(agent, host.cwd),
    openRemoteTools: openMcpTools,
  });
  return 0;
}

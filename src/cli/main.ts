#!/usr/bin/env bun
/**
 * The `luma` command. The only place that reads argv, prints, picks colours and exits;
 * everything else is the library (`src/index.ts`), which returns values or throws LumaErrors.
 */
import { parseArgv, runTimeOptions } from "./argv";
import { helpText } from "./help-text";
import { reportError, EXIT } from "./report-error";
import { useColor } from "./terminal";
import { renderDiagnostics } from "../diagnostics/render";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { VERSION } from "../version";
import { fdWriter } from "../runtime/run/write-fully";
import { askValueOnTerminal } from "./value-prompt";
import { askOnTerminal } from "./approval-prompt";
import { processStdin } from "./stdin-reader";
import { builtAgentPayload } from "../build/agent-payload";
import { checkFile, generateTypesForFile, importMcpTools, runFile, serveMcp, serveHttp } from "../index";

const sources = new Map<string, string>();
const renderWarnings = (warnings: Diagnostic[]) =>
  renderDiagnostics(warnings, { color: useColor(process.stderr), sourceOf: (f) => sources.get(f) });
// Both streams go through one writer: complete and in order on pipes, files, terminals.
const stdout = fdWriter(1, "stdout");
const stderr = fdWriter(2, "stderr");
const out = (text: string) => stdout(text + "\n");
const err = (text: string) => stderr(text + "\n");

/** What every program run gets from this process (`luma FILE` and a built agent alike). */
const host = () => ({
  cwd: process.cwd(),
  env: process.env,
  stdout: out,
  stdoutText: stdout,
  stderr: err,
  sources,
  interactive: process.stdin.isTTY === true,
  // The runtime asks through this callback; the terminal is the CLI's (approval-prompt.ts).
  approve: askOnTerminal,
  askValue: askValueOnTerminal,
  stdin: processStdin(),
  onWarnings: (warnings: Diagnostic[]) => err(renderWarnings(warnings)),
});

async function main(argv: string[]): Promise<number> {
  // `sandbox: "process"`: this binary is also a tool module's child, inside its sandbox
  // (runtime/tools/process-host/child-entry.ts). The variable is set by luma's bwrap command line.
  if (process.env.LUMA_TOOL_HOST === "1") return (await import("../runtime/tools/process-host/child-entry")).serveToolHost();
  // A built agent (`luma build`) carries its program: its argv is the program's command line.
  const agent = builtAgentPayload();
  if (agent) return (await import("./run-built-agent")).runBuiltAgent(agent, argv, host());
  const cmd = parseArgv(argv);
  switch (cmd.kind) {
    case "help":
      out(helpText().trimEnd());
      return EXIT.ok;
    case "version":
      out(`luma ${VERSION}`);
      return EXIT.ok;
    case "explain": {
      const { explainText } = await import("./explain");
      out(explainText(cmd.code));
      return EXIT.ok;
    }
    case "check": {
      if (cmd.format === "json") {
        const { checkAsJson } = await import("./check-json");
        const report = await checkAsJson(cmd.file, sources);
        out(report.text);
        return report.exitCode;
      }
      const result = await checkFile(cmd.file, { sources });
      if (result.warnings.length) err(renderWarnings(result.warnings));
      out(`${cmd.file}: ok`);
      return EXIT.ok;
    }
    case "approve":
    case "deny":
    case "runs":
    case "runs-show":
    case "runs-answer":
      return (await import("./journal-commands")).runJournalCommand(cmd, out, { cwd: process.cwd(), env: process.env });
    case "run":
      if (cmd.generateToolTypes) {
        await generateTypesForFile(cmd.file, cmd.generateToolTypes, { sources });
        out(`wrote ${cmd.generateToolTypes}`);
        return EXIT.ok;
      }
      await runFile({
        file: cmd.file,
        args: cmd.args,
        toolModules: cmd.toolModules,
        ...runTimeOptions(cmd),
        ...host(),
      });
      return EXIT.ok;
    case "build": {
      const { buildAgent } = await import("../build/build-agent");
      const built = await buildAgent({ ...cmd, configPath: cmd.config, cwd: process.cwd(), env: process.env, sources, notice: err });
      if (built.warnings.length) err(renderWarnings(built.warnings));
      const modules = built.manifest.modules.length;
      out(`wrote ${cmd.out} (${cmd.file}, ${modules} tool module${modules === 1 ? "" : "s"}, ${built.manifest.target})`);
      return EXIT.ok;
    }
    case "mcp":
      await serveMcp({
        ...cmd, configPath: cmd.config, cwd: process.cwd(), env: process.env, stdout: out, stderr: err, sources,
        onWarnings: (warnings) => err(renderWarnings(warnings)),
      });
      return EXIT.ok;
    case "fmt": {
      const { runFmt } = await import("./fmt-command");
      return runFmt(cmd, { out, write: stdout, sources });
    }
    case "lsp": {
      const { serveLsp } = await import("../lsp/language-server");
      return serveLsp({
        write: stdout,
        read(onChunk, onEnd) {
          process.stdin.on("data", (chunk: Buffer) => onChunk(chunk));
          process.stdin.on("end", onEnd);
          process.stdin.on("error", onEnd);
        },
      });
    }
    case "test":
      return (await import("./test-command")).runTestCommand(cmd, {
        cwd: process.cwd(), env: process.env, out, sources, color: useColor(process.stdout),
      });
    case "eval":
      return (await import("./eval-command")).runEvalCommand(cmd, {
        cwd: process.cwd(), env: process.env, out, err, sources, color: useColor(process.stdout),
      });
    case "init": {
      const { initProject } = await import("../init/init-project");
      for (const line of initProject(cmd.dir, process.cwd())) out(line);
      return EXIT.ok;
    }
    case "store-reset":
      return (await import("./store-reset-command")).runStoreReset(cmd, out, process.cwd());
    case "completion": {
      const { completionScript } = await import("./completion-script");
      out(completionScript(cmd.shell));
      return EXIT.ok;
    }
    case "chat":
      return (await import("./chat-command")).runChatCommand(cmd, { ...host(), write: stdout, err });
    case "serve":
      await serveHttp({
        ...cmd, configPath: cmd.config, cwd: process.cwd(), env: process.env, stdout: out, stderr: err, sources,
        onWarnings: (warnings) => err(renderWarnings(warnings)),
      });
      return EXIT.ok;
    case "ui":
      return (await import("./ui-command")).runUiCommand(cmd, { out, cwd: process.cwd(), env: process.env });
    case "mcp-import":
      out((await importMcpTools({ server: cmd.server, configPath: cmd.config, cwd: process.cwd(), env: process.env, notice: err })).trimEnd());
      return EXIT.ok;
  }
}

let exitCode: number;
try {
  exitCode = await main(process.argv.slice(2));
} catch (e) {
  const report = reportError(e, {
    color: useColor(process.stderr),
    sourceOf: (f) => sources.get(f),
    debug: process.env.LUMA_DEBUG === "1",
  });
  exitCode = report.exitCode;
  try {
    if (report.text !== "") err(report.text);
  } catch {
    // stderr itself is closed or full: the exit code is all that can still say it.
  }
}
// A broken stream decides the exit code even if something on the way swallowed its error.
const broken = stdout.failure ?? stderr.failure;
if (broken !== undefined && exitCode === EXIT.ok) exitCode = broken.exitCode;
// Exit explicitly: a handler that ignored its AbortSignal may still hold a timer or a
// socket, and a finished program must not wait for it. Output was written synchronously,
// to the last byte (write-fully.ts), so exiting loses nothing.
process.exit(exitCode);

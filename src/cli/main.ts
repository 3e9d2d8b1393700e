#!/usr/bin/env bun
/**
 * The `luma` command. The only place that reads argv, prints, picks colours and exits;
 * everything else is the library (`src/index.ts`), which returns values or throws LumaErrors.
 */
import { writeSync } from "node:fs";
import { parseArgv } from "./argv";
import { helpText } from "./help-text";
import { reportError, EXIT } from "./report-error";
import { useColor } from "./terminal";
import { renderDiagnostics } from "../diagnostics/render";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { VERSION } from "../version";
import { checkFile, generateTypesForFile, runFile } from "../index";

const sources = new Map<string, string>();
const renderWarnings = (warnings: Diagnostic[]) =>
  renderDiagnostics(warnings, { color: useColor(process.stderr), sourceOf: (f) => sources.get(f) });
const out = (text: string) => writeSync(1, text + "\n");
const err = (text: string) => writeSync(2, text + "\n");

async function main(argv: string[]): Promise<number> {
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
        configPath: cmd.config,
        trace: cmd.trace,
        record: cmd.record,
        replay: cmd.replay,
        usage: cmd.usage,
        cwd: process.cwd(),
        env: process.env,
        stdout: out,
        stderr: err,
        sources,
        interactive: process.stdin.isTTY === true,
        onWarnings: (warnings) => err(renderWarnings(warnings)),
      });
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
  err(report.text);
  exitCode = report.exitCode;
}
// Exit explicitly: a handler that ignored its AbortSignal may still hold a timer or a
// socket, and a finished program must not wait for it. Output was written synchronously.
process.exit(exitCode);

/**
 * From a checked program to a finished run, in the order the spec requires: everything that
 * can reject the program (config, tool modules, registry, runtime-only rules) happens before
 * the first statement, so a rejected program has had no side effect (exit code 2).
 */
import { dirname, resolve } from "node:path";
import type { Program } from "../syntax/ast";
import { loadConfig } from "../config/load-config";
import { loadToolRegistry } from "./tools/registry/load-tool-registry";
import { createSchemaTable } from "../schema/schema-table";
import { createToolInvoker } from "./tools/pipeline";
import { checkToolRuntimeRules } from "./tools/pipeline";
import { runProgram } from "./interpreter/run-program";
import { openTraceSink, type TraceSink } from "./trace-sink";
import { askOnTerminal } from "./approval-prompt";

export interface StartOptions {
  file: string;
  args: string[];
  toolModules: string[];
  configPath?: string;
  trace?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  sourceOf: (file: string) => string | undefined;
  /** stdin is an interactive terminal: `tool_policy: "approval"` may ask there. */
  interactive: boolean;
}

export async function startProgram(program: Program, opts: StartOptions): Promise<void> {
  const programDir = dirname(resolve(opts.cwd, opts.file));
  const config = await loadConfig({ configPath: opts.configPath && resolve(opts.cwd, opts.configPath), programDir });
  const registry = await loadToolRegistry({ program, config, cliModules: opts.toolModules, cwd: opts.cwd });
  const ruleError = checkToolRuntimeRules(program);
  if (ruleError) throw ruleError;

  const schemas = createSchemaTable(program);
  let sink: TraceSink | undefined;
  if (opts.trace) sink = openTraceSink(resolve(opts.cwd, opts.trace) === resolve(opts.cwd, "-") ? "-" : resolve(opts.cwd, opts.trace));
  try {
    const tools = createToolInvoker({
      program,
      schemas,
      registry,
      config: config.config,
      env: opts.env,
      warn: opts.stderr,
      trace: sink ? (e) => sink!.emit(e) : undefined,
      approve: opts.interactive ? askOnTerminal : undefined,
    });
    await runProgram(program, {
      args: opts.args,
      schemas,
      tools,
      stdout: opts.stdout,
      stderr: opts.stderr,
      sourceOf: opts.sourceOf,
    });
  } finally {
    sink?.close();
  }
}

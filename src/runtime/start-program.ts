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
import { openIdempotencyStore } from "./tools/stores/open-idempotency-store";
import { resolveDatasourceBridges, statementToolPlans } from "./datasources";
import type { AskRunnerDeps } from "./ask/create-ask-runner";

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
  /** `--record FILE`: save every provider exchange of `ask` to a cassette (extension). */
  record?: string;
  /** `--replay FILE`: answer provider requests from a cassette, offline (extension). */
  replay?: string;
  /** Test and benchmark hooks for `ask`: transport, retry sleep, response size cap. */
  askHooks?: Pick<AskRunnerDeps, "transport" | "sleep" | "maxResponseBytes">;
}

export async function startProgram(program: Program, opts: StartOptions): Promise<void> {
  const programDir = dirname(resolve(opts.cwd, opts.file));
  const config = await loadConfig({ configPath: opts.configPath && resolve(opts.cwd, opts.configPath), programDir });
  const registry = await loadToolRegistry({ program, config, cliModules: opts.toolModules, cwd: opts.cwd, notice: opts.stderr });
  const ruleError = checkToolRuntimeRules(program);
  if (ruleError) throw ruleError;
  // Spec §11: the configured idempotency store opens (and purges) before the first statement.
  const idempotencyStore = await openIdempotencyStore(config.config.idempotency_store, {
    projectDir: config.projectDir,
    env: opts.env,
    warn: opts.stderr,
  });
  // Spec §12: every datasource has a bridge before any statement runs (connects lazily).
  const bridges = resolveDatasourceBridges({ program, registry, env: opts.env, programDir });

  const schemas = createSchemaTable(program);
  let sink: TraceSink | undefined;
  if (opts.trace) sink = openTraceSink(resolve(opts.cwd, opts.trace) === resolve(opts.cwd, "-") ? "-" : resolve(opts.cwd, opts.trace));
  const trace = sink ? (e: object) => sink!.emit(e) : undefined;
  try {
    const tools = createToolInvoker({
      program,
      schemas,
      registry,
      config: config.config,
      env: opts.env,
      warn: opts.stderr,
      trace,
      approve: opts.interactive ? askOnTerminal : undefined,
      idempotencyStore,
      statements: statementToolPlans({ program, schemas, bridges, warn: opts.stderr, trace }),
    });
    // `ask` only exists with a model; its code (providers, cassettes) loads only then.
    const ask = program.decls.some((d) => d.kind === "Model")
      ? (await import("./ask/create-ask-runner")).createAskRunner({
          program,
          schemas,
          tools,
          env: opts.env,
          warn: opts.stderr,
          trace,
          record: opts.record === undefined ? undefined : { path: resolve(opts.cwd, opts.record), label: opts.record },
          replay: opts.replay === undefined ? undefined : { path: resolve(opts.cwd, opts.replay), label: opts.replay },
          ...opts.askHooks,
        })
      : undefined;
    await runProgram(program, {
      args: opts.args,
      schemas,
      tools,
      stdout: opts.stdout,
      stderr: opts.stderr,
      sourceOf: opts.sourceOf,
      ask,
    });
  } finally {
    await bridges.close();
    await idempotencyStore?.close?.();
    sink?.close();
  }
}

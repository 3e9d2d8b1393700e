/**
 * From a checked program to a finished run, in the order the spec requires: everything that
 * can reject the program (config, tool modules, registry, runtime-only rules) happens before
 * the first statement, so a rejected program has had no side effect (exit code 2).
 */
import { dirname, resolve } from "node:path";
import type { Program } from "../syntax/ast";
import { loadConfig } from "../config/load-config";
import { loadToolRegistry } from "./tools/registry/load-tool-registry";
import { createToolInvoker } from "./tools/pipeline";
import { checkToolRuntimeRules } from "./tools/pipeline";
import { runProgram } from "./interpreter/run-program";
import { openTraceSink } from "./trace-sink";
import { askOnTerminal } from "./approval-prompt";
import { openIdempotencyStore } from "./tools/stores/open-idempotency-store";
import type { SchemaTable } from "../schema/schema-table-types";
import type { AskRunnerDeps } from "./ask/create-ask-runner";
import { endJournalRun, startJournalRun } from "./journal/start-run";
import type { RunJournal } from "./journal/run-journal";

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
  /** `--journal PATH`: the run's journal, a SQLite file (durable runs). */
  journal?: string;
  /** `--run-id ID`: resume (or start) this run of the journal. */
  runId?: string;
  /** Test and benchmark hooks for `ask`: transport, retry sleep, response size cap. */
  askHooks?: Pick<AskRunnerDeps, "transport" | "sleep" | "maxResponseBytes">;
}

export async function startProgram(program: Program, opts: StartOptions): Promise<void> {
  const programDir = dirname(resolve(opts.cwd, opts.file));
  const config = await loadConfig({ configPath: opts.configPath && resolve(opts.cwd, opts.configPath), programDir });
  const registry = await loadToolRegistry({ program, config, cliModules: opts.toolModules, cwd: opts.cwd, programDir, notice: opts.stderr });
  const ruleError = checkToolRuntimeRules(program);
  if (ruleError) throw ruleError;
  // Spec §12: every datasource has a bridge before any statement runs (connects lazily).
  // Code that a program does not use is not loaded (start-up stays near a bare binary's).
  const datasources = program.decls.some((d) => d.kind === "Datasource") ? await import("./datasources") : undefined;
  const bridges = datasources?.resolveDatasourceBridges({ program, registry, env: opts.env, programDir });
  const schemas = usesTypes(program) ? (await import("../schema/schema-table")).createSchemaTable(program) : NO_TYPES;
  const sink = opts.trace === undefined ? undefined : openTraceSink(opts.trace === "-" ? "-" : resolve(opts.cwd, opts.trace));
  const trace = sink ? (e: object) => sink.emit(e) : undefined;
  // Spec §11: the configured idempotency store opens (and purges) before the first statement —
  // last of the startup steps, because it creates files: a program rejected by any check
  // above leaves nothing behind.
  let idempotencyStore: Awaited<ReturnType<typeof openIdempotencyStore>>;
  try {
    idempotencyStore = await openIdempotencyStore(config.config.idempotency_store, {
      projectDir: config.projectDir,
      env: opts.env,
      warn: opts.stderr,
    });
  } catch (e) {
    sink?.close();
    throw e;
  }
  // Durable runs: the journal opens last of all (it creates files too), and takes the run's lease.
  let journal: RunJournal | undefined;
  try {
    journal = await startJournalRun(config.config, {
      cliPath: opts.journal === undefined ? undefined : { path: resolve(opts.cwd, opts.journal), shown: opts.journal },
      projectDir: config.projectDir,
      env: opts.env,
      runId: opts.runId,
      program: opts.file,
      stderr: opts.stderr,
    });
  } catch (e) {
    await idempotencyStore?.close?.();
    sink?.close();
    throw e;
  }
  let runError: unknown;
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
      statements: bridges && datasources!.statementToolPlans({ program, schemas, bridges, warn: opts.stderr, trace }),
      journal,
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
          journal,
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
      now: journal && (() => journal!.now()),
    });
  } catch (e) {
    runError = e;
    throw e;
  } finally {
    if (journal !== undefined) await endJournalRun(journal, runError);
    await bridges?.close();
    await idempotencyStore?.close?.();
    sink?.close();
  }
}

/** Whether anything in the program is validated against a type (declarations or `x: T = …`). */
function usesTypes(program: Program): boolean {
  return program.decls.length > 0 || program.body.some(function typed(s): boolean {
    switch (s.kind) {
      case "Assign":
        return s.type !== undefined;
      case "If":
        return s.then.some(typed) || (s.else ?? []).some(typed);
      case "For":
        return s.body.some(typed);
      case "Try":
        return s.body.some(typed) || s.handler.some(typed);
      default:
        return false;
    }
  });
}

/** The schema table of a program that declares no type: nothing in it can ask for one. */
const noType = (): never => {
  throw new Error("internal: a program without declarations asked for a schema");
};
const NO_TYPES: SchemaTable = { named: () => undefined, typeOf: noType, toolInput: noType, validate: noType };

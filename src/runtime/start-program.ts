/**
 * From a checked program to a finished run, in the order the spec requires: everything that
 * can reject the program (config, tool modules, registry, runtime-only rules) happens before
 * the first statement, so a rejected program has had no side effect (exit code 2).
 */
import { basename, dirname, resolve } from "node:path";
import type { Program } from "../syntax/ast";
import { loadConfig } from "../config/load-config";
import { loadToolRegistry } from "./tools/registry/load-tool-registry";
import { createHandlerRunCount } from "./tools/registry/handler-run-count";
import { createToolInvoker } from "./tools/pipeline";
import { checkToolRuntimeRules } from "./tools/pipeline";
import { checkAgentToolContexts } from "./tools/steps/agent-context-rules";
import { runProgram } from "./interpreter/run-program";
import { openTraceSink } from "./trace-sink";
import { askOnTerminal } from "./approval-prompt";
import { openIdempotencyStore } from "./stores/open-idempotency-store";
import type { SchemaTable } from "../schema/schema-table-types";
import type { LoadedConfig } from "../config/config-types";
import type { LoadedModule } from "./module-loading/loaded-module";
import type { ModulePolicy } from "./module-policy/module-policy";
import type { AskRunnerDeps } from "./ask/create-ask-runner";
import { exitProcess, installExitGuard } from "./base/exit-guard";
import { strayError } from "./run/stray-error";
import { stopOnSignal } from "./run/stop-on-signal";
import { redirectConsoleToStderr } from "./run/console-to-stderr";
import { createRunLifecycle, type RunLifecycle } from "./run/run-lifecycle";
import { armDeadline, type RunDeadline } from "./run/run-deadline";
import type { AskRunner } from "./ask/ask-types";
import type { Transport } from "./providers/transport";
import type { CassetteSource } from "./providers/cassette";
import type { ToolInvoker } from "./tools/tool-invoker-types";
import type { Telemetry } from "./telemetry/telemetry";
import type { UsageLedger } from "./usage/usage-ledger";
import { endJournalRun, startJournalRun } from "./journal/start-run";
import type { RunJournal } from "./journal/run-journal";
import { nestedBlocks } from "../language/ast-children";

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
  /**
   * `luma test`: the ask transport that answers offline (runtime/testing), and fresh stores;
   * `deadline` stops the test's run once it passes (run/run-deadline.ts).
   */
  testRun?: { offline: Transport; deadline?: RunDeadline };
  /** Test and benchmark hooks for `ask`: transport, retry sleep, response size cap. */
  askHooks?: Pick<AskRunnerDeps, "transport" | "sleep" | "maxResponseBytes">;
  /** A built agent (`luma build`, src/build): its config and tool modules come from memory. */
  builtAgent?: BuiltAgentStart;
  /** `--usage`: print the per-model token (and cost) table on stderr when the run ends. */
  usage?: boolean;
}

/**
 * What a built agent decided at build time. Paths that a program run resolves against the
 * program's directory resolve against the working directory instead: the build machine's
 * directories do not exist where the agent runs. What is part of the program — its config,
 * tool modules, the config's `replay` cassette — is embedded instead of resolved.
 */
export interface BuiltAgentStart {
  /** The embedded config, or the `--config` file given at run time (absolute path). */
  loadConfig(configPath: string | undefined): Promise<LoadedConfig>;
  loadModules(policy: ModulePolicy | undefined): Promise<LoadedModule[]>;
  /** The embedded config's `replay` cassette, carried in the agent: it answers unless `--config` replaces that config. */
  replay?: { text: string };
}

/**
 * Everything a started program holds between its start-up checks and its end: what the
 * interpreter needs, and `close`, which releases it (bridges, store, trace, MCP servers).
 */
export interface OpenProgram {
  schemas: SchemaTable;
  tools: ToolInvoker;
  ask?: AskRunner;
  /** The run's journal (durable runs), when one is configured or given with --journal. */
  journal?: RunJournal;
  /** OpenTelemetry export, when an OTLP endpoint is configured (telemetry/otel). */
  telemetry?: Telemetry;
  /** How many times a tool's handler ran so far (the `calls` builtin). */
  handlerRuns(tool: string): number;
  /** Releases everything; `runError` (the run's failure, if any) is recorded in the journal. */
  close(runError?: unknown): Promise<void>;
}

export async function startProgram(program: Program, opts: StartOptions): Promise<void> {
  // From here to the end of the run, tool module code cannot end the process (base/exit-guard.ts):
  // a stray exit or throw stops the run through its lifecycle, which releases what it holds.
  const lifecycle = createRunLifecycle();
  const unguard = installExitGuard((thrown) => lifecycle.stop(strayError(thrown, lifecycle.inFlight())));
  // A handler's console.log is a debug line, not program output (console-to-stderr.ts).
  const restoreConsole = redirectConsoleToStderr(opts.stderr);
  // Ctrl-C / SIGTERM stop the run the same way: claims released, trace written, 130 / 143.
  const unlisten = stopOnSignal(lifecycle, exitProcess);
  const deadline = opts.testRun?.deadline && armDeadline(lifecycle, opts.testRun.deadline);
  try {
    // A test's deadline covers its start-up too (a tool module whose loading never settles):
    // what a stopped start-up opens later is left to the end of the `luma test` process.
    const opening = openProgram(program, opts, lifecycle);
    const open = await (deadline ? lifecycle.run(opening) : opening);
    const journal = open.journal;
    let runError: unknown;
    try {
      await lifecycle.run(
        runProgram(program, {
          args: opts.args,
          schemas: open.schemas,
          tools: open.tools,
          stdout: opts.stdout,
          stderr: opts.stderr,
          sourceOf: opts.sourceOf,
          ask: open.ask,
          now: journal && (() => journal.now()),
          telemetry: open.telemetry,
          stopped: deadline ? deadline.stopped : lifecycle.stopped,
          handlerRuns: open.handlerRuns,
        }),
      );
    } catch (e) {
      runError = e;
      throw e;
    } finally {
      await open.close(runError);
    }
  } finally {
    deadline?.disarm();
    unlisten();
    restoreConsole();
    unguard();
  }
}

/**
 * The start-up steps without running the body: `luma FILE` runs the program on the result,
 * `luma mcp FILE` serves its tools and agent methods through it (src/mcp/). Whatever fails
 * here has had no side effect, and what was opened before the failure is closed again.
 * `lifecycle`, when given, learns the tool invoker so a stop can abort what is in flight.
 */
export async function openProgram(program: Program, opts: Omit<StartOptions, "args">, lifecycle?: RunLifecycle): Promise<OpenProgram> {
  const agent = opts.builtAgent;
  const programDir = agent ? opts.cwd : dirname(resolve(opts.cwd, opts.file));
  const configPath = opts.configPath && resolve(opts.cwd, opts.configPath);
  const config = agent ? await agent.loadConfig(configPath) : await loadConfig({ configPath, programDir });
  const registry = await loadToolRegistry({
    program,
    config,
    cliModules: opts.toolModules,
    cwd: opts.cwd,
    programDir,
    notice: opts.stderr,
    env: opts.env,
    loadEmbedded: agent?.loadModules,
  });
  const closeRegistry = async () => void (await registry.close?.());
  let bridges: { close(): Promise<void> } | undefined;
  let sink: ReturnType<typeof openTraceSink> | undefined;
  let idempotencyStore: Awaited<ReturnType<typeof openIdempotencyStore>> | undefined;
  let journal: RunJournal | undefined;
  let telemetry: Telemetry | undefined;
  let unregisterFlush: (() => void) | undefined;
  let usage: UsageLedger | undefined;
  let trace: Observer | undefined;
  // Each release runs even when one before it failed — a journal that cannot record the run's
  // end must not cost the store its close, the trace its usage event or the spans their
  // export; the first failure is what the run reports.
  const close = (runError?: unknown) =>
    releaseAll([
      () => journal && endJournalRun(journal, runError),
      () => bridges?.close(),
      () => idempotencyStore?.close?.(),
      () => usage && !usage.empty && reportUsage(usage, { trace, stderr: opts.usage ? opts.stderr : undefined }),
      () => sink?.close(),
      // Spans are sent before the process exits, also when the run failed (the error is
      // reported after this, by the CLI); a signal handler uses flushBeforeExit().
      () => unregisterFlush?.(),
      () => telemetry?.flush(),
      closeRegistry,
    ]);
  try {
    const ruleError = checkToolRuntimeRules(program) ?? checkAgentToolContexts(program, config.config.tool_contexts);
    if (ruleError) throw ruleError;
    // Spec §12: every datasource has a bridge before any statement runs (connects lazily).
    // Code that a program does not use is not loaded (start-up stays near a bare binary's).
    const datasources = program.decls.some((d) => d.kind === "Datasource") ? await import("./datasources") : undefined;
    const resolved = datasources?.resolveDatasourceBridges({ program, registry, env: opts.env, programDir });
    bridges = resolved;
    const schemas = usesTypes(program) ? (await import("../schema/schema-table")).createSchemaTable(program) : NO_TYPES;
    // An ask whose provider cannot take its (recursive) schema is rejected now, not at the provider.
    if (program.decls.some((d) => d.kind === "Model")) (await import("./ask/ask-format-support")).checkAskFormats(program, schemas);
    sink = opts.trace === undefined ? undefined : openTraceSink(opts.trace === "-" ? "-" : resolve(opts.cwd, opts.trace));
    const traceSink = sink;
    // OpenTelemetry export (telemetry/otel): its code loads only when an OTLP endpoint is set.
    telemetry = otlpConfigured(opts.env) ? (await import("./telemetry/otel/create-otel-telemetry")).createOtelTelemetry(opts.env, opts.stderr, (await import("./providers/families")).telemetryNameOf) : undefined;
    const flush = telemetry?.flush;
    unregisterFlush = flush && (await import("./telemetry/exit-flush")).onExitFlush(flush);
    trace = fanOut(traceSink && ((e: object) => traceSink.emit(e)), telemetry?.observe);
    if (program.decls.some((d) => d.kind === "Model")) usage = (await import("./usage/usage-ledger")).createUsageLedger();
    // Spec §11: the configured idempotency store opens (and purges) before the first statement —
    // last of the startup steps, because it creates files: a program rejected by any check
    // above leaves nothing behind.
    // A test starts from nothing: the in-memory store (none configured), no journal — so no
    // test sees another's claims, and `luma test` writes nothing a later run would read.
    const isolated = opts.testRun !== undefined;
    idempotencyStore = await openIdempotencyStore(isolated ? undefined : config.config.idempotency_store, {
      projectDir: config.projectDir,
      env: opts.env,
      warn: opts.stderr,
    });
    // Durable runs: the journal opens last of all (it creates files too), and takes the run's lease.
    journal = isolated ? undefined : await startJournalRun(config.config, {
      cliPath: opts.journal === undefined ? undefined : { path: resolve(opts.cwd, opts.journal), shown: opts.journal },
      projectDir: config.projectDir,
      env: opts.env,
      runId: opts.runId,
      program: opts.file,
      stderr: opts.stderr,
    });
    const runCount = createHandlerRunCount();
    const tools = createToolInvoker({
      program,
      schemas,
      registry: runCount.wrap(registry),
      config: config.config,
      env: opts.env,
      warn: opts.stderr,
      trace,
      approve: opts.interactive ? askOnTerminal : undefined,
      idempotencyStore,
      statements: resolved && datasources!.statementToolPlans({ program, schemas, bridges: resolved, warn: opts.stderr, trace }),
      journal,
    });
    lifecycle?.attach(tools);
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
          replay: replayOf(opts, config),
          journal,
          usage,
          offline: opts.testRun?.offline,
          ...opts.askHooks,
        })
      : undefined;
    return { schemas, tools, ask, journal, telemetry, close, handlerRuns: runCount.runs };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Runs every step in order, whatever fails; then throws the first failure. */
async function releaseAll(steps: (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (e) {
      failures.push(e);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * `--replay FILE` (against the working directory), else the config's `replay`: a built
 * agent's own cassette (embedded with its config), else the file against the config's directory.
 */
function replayOf(opts: Pick<StartOptions, "replay" | "cwd" | "configPath" | "builtAgent">, config: LoadedConfig): CassetteSource | undefined {
  if (opts.replay !== undefined) return { path: resolve(opts.cwd, opts.replay), label: opts.replay, namedBy: "--replay" };
  const configured = config.config.replay;
  if (configured === undefined) return undefined;
  const namedBy = `"replay" in ${opts.configPath ?? (config.path ? basename(config.path) : "the config")}`;
  const embedded = opts.configPath === undefined ? opts.builtAgent?.replay : undefined;
  if (embedded) return { path: configured, label: configured, namedBy, text: embedded.text };
  return { path: resolve(config.projectDir, configured), label: configured, namedBy };
}

const otlpConfigured = (env: Record<string, string | undefined>): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT) && env.OTEL_SDK_DISABLED !== "true";

type Observer = (event: object, content?: () => Record<string, unknown>) => void;

/** One trace function for every observer of events (the --trace file, the span exporter); none = no tracing at all. */
function fanOut(...observers: (Observer | undefined)[]): Observer | undefined {
  const on = observers.filter((o): o is Observer => o !== undefined);
  if (on.length <= 1) return on[0];
  return (event, content) => {
    for (const o of on) o(event, content);
  };
}

async function reportUsage(ledger: UsageLedger, out: { trace?: Observer; stderr?: (line: string) => void }): Promise<void> {
  const { runUsageEvent } = await import("./usage/usage-ledger");
  out.trace?.(runUsageEvent(ledger));
  if (out.stderr) for (const line of (await import("./usage/usage-table")).usageTable(ledger)) out.stderr(line);
}

/** Whether anything in the program is validated against a type (declarations or `x: T = …`). */
function usesTypes(program: Program): boolean {
  return program.decls.length > 0 || program.body.some(function typed(s): boolean {
    return s.kind === "Assign" ? s.type !== undefined : nestedBlocks(s).some((block) => block.some(typed));
  });
}

/** The schema table of a program that declares no type: nothing in it can ask for one. */
const noType = (): never => {
  throw new Error("internal: a program without declarations asked for a schema");
};
const NO_TYPES: SchemaTable = { named: () => undefined, typeOf: noType, toolInput: noType, validate: noType };

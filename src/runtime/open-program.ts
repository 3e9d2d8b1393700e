/**
 * The start-up steps of a run without its body: config, tool registry, runtime-only rules,
 * datasource bridges, schemas, trace, telemetry, usage, idempotency store, journal, tools
 * and `ask`. `luma FILE` runs the program on the result (start-program.ts), `luma mcp FILE`
 * serves its tools and agent methods through it (src/mcp/).
 *
 * What is opened is owned by one `AsyncDisposableStack`: each resource registers its release
 * the moment it exists, so a failure half-way releases exactly what was opened, in reverse
 * order, and a finished run releases everything the same way. Whatever fails here has had
 * no side effect the user can see afterwards.
 */
import type { ThreadStore } from "./stores/threads/thread-message";
import { firstStoredThreadCall } from "./stores/threads/thread-store-rule";
import { basename, dirname, resolve } from "node:path";
import type { Program } from "../syntax/ast";
import { loadRunConfig } from "./run-config";
import { loadToolRegistry } from "./tools/registry/load-tool-registry";
import { createHandlerRunCount } from "./tools/registry/handler-run-count";
import { createToolInvoker } from "./tools/pipeline";
import { programRuleError } from "./program-rules";
import { openTraceSink } from "./trace-sink";
import { openIdempotencyStore } from "./stores/open-idempotency-store";
import type { SchemaTable } from "../schema/schema-table-types";
import type { LoadedConfig } from "../config/config-types";
import type { RunLifecycle } from "./run/run-lifecycle";
import type { AskRunner } from "./ask/ask-types";
import type { CassetteSource } from "./providers/cassette";
import type { ToolInvoker } from "./tools/tool-invoker-types";
import type { Telemetry } from "./telemetry/telemetry";
import type { UsageLedger } from "./usage/usage-ledger";
import { endJournalRun, startJournalRun } from "./journal/start-run";
import type { RunJournal } from "./journal/run-journal";
import { openCallRuns, unjournaledCall, type CallRuns } from "./journal/call-runs";
import { nestedBlocks } from "../language/ast-children";
import type { StartOptions } from "./start-options";
import type { InterpreterHost } from "./interpreter/runtime-context";
import { STD_MODULE } from "../language/std-tools";
import type { StdSettings } from "./tools/std/std-settings";
import type { LateRunParts } from "./tools/registry/registry-types";

/**
 * Everything a started program holds between its start-up checks and its end: what the
 * interpreter needs, and `close`, which releases it (journal, store, trace, bridges, MCP servers).
 */
export interface OpenProgram {
  schemas: SchemaTable;
  tools: ToolInvoker;
  ask?: AskRunner;
  /** The run's journal (durable runs), when one is configured or given with --journal. */
  journal?: RunJournal;
  /** A program serving calls (`servedBy`) with a journal: each call's run (call-runs.ts). */
  callRuns?: CallRuns;
  /** OpenTelemetry export, when an OTLP endpoint is configured (telemetry/otel). */
  telemetry?: Telemetry;
  /** How many times a tool's handler ran so far (the `calls` builtin). */
  handlerRuns(tool: string): number;
  /** The `"threads"` store, opened when the program calls `thread(id)` (issue #26 §1). */
  threads?: ThreadStore;
  /** `parallel_limit` of luma.config.json: a `parallel for` without `limit` runs at most this many bodies at once. */
  parallelLimit?: number;
  /** The config's `max_agent_depth` (issue #27 §1); absent: the default, 4. */
  maxAgentDepth?: number;
  /** Releases everything; `runError` (the run's failure, if any) is recorded in the journal. */
  close(runError?: unknown): Promise<void>;
}

/** The part of an interpreter's host that an opened program decides (programHostOf). */
export type ProgramHost = Pick<
  InterpreterHost,
  "schemas" | "tools" | "ask" | "telemetry" | "handlerRuns" | "threads" | "now" | "env" | "sourceOf" | "parallelLimit" | "maxAgentDepth" | "callRun"
>;

/**
 * How the opened program is used: `"run"` — one run (`luma FILE`, `luma test`, a `luma eval`
 * case); `"calls"` — many calls under one opening (`luma chat`'s lines, `luma serve`'s
 * requests, `luma mcp`'s tool calls), each a journal run of its own when there is a journal.
 */
export type ProgramUse = "run" | "calls";

/**
 * What a run of the opened program hands its interpreter besides its arguments, output and
 * input: the program's resources, the config's limits, the journal's clock (a resumed run
 * reads the recorded time) and the process's environment. One place, so that a `luma FILE`
 * run, a `luma test` run, each `luma eval` case, `luma chat`, `luma serve` and `luma mcp` get
 * the same host (each adds only its own output and input).
 *
 * Many calls: each call is its own journal run (call-runs.ts), whose clock its `now()` reads
 * and whose id names its thread exchanges; without a journal, `now()` is the clock's and an
 * exchange gets a fresh name.
 */
export function programHostOf(open: OpenProgram, opts: Pick<StartOptions, "env" | "sourceOf">, use: ProgramUse = "run"): ProgramHost {
  if (use === "calls") return callsHostOf(open, opts);
  const journal = open.journal;
  return {
    schemas: open.schemas,
    tools: open.tools,
    ask: open.ask,
    telemetry: open.telemetry,
    handlerRuns: open.handlerRuns,
    threads: { store: open.threads, runKey: journal?.runId },
    now: journal && (() => journal.now()),
    env: (name) => opts.env[name],
    sourceOf: opts.sourceOf,
    parallelLimit: open.parallelLimit,
    maxAgentDepth: open.maxAgentDepth,
  };
}

/** programHostOf for many calls: the journal (clock, exchange names) is the current call's run. */
function callsHostOf(open: OpenProgram, opts: Pick<StartOptions, "env" | "sourceOf">): ProgramHost {
  const runs = open.callRuns;
  return {
    ...programHostOf({ ...open, journal: undefined }, opts),
    threads: {
      store: open.threads,
      get runKey() {
        return runs?.journal()?.runId;
      },
    },
    now: runs && (() => runs.journal()?.now() ?? new Date()),
    callRun: runs ? (call, o) => runs.run(call, o) : unjournaledCall,
  };
}

/**
 * Opens the program's resources; what was opened before a failure is closed again.
 * `lifecycle`, when given, learns the tool invoker so a stop can abort what is in flight.
 */
export async function openProgram(program: Program, opts: Omit<StartOptions, "args">, lifecycle?: RunLifecycle): Promise<OpenProgram> {
  const agent = opts.builtAgent;
  const { config, programDir } = await loadRunConfig(opts);
  const std = await stdSettingsOf(program, config, programDir, opts, agent !== undefined);
  // MCP servers connect with the tools, before `ask` exists: their sampling requests find the
  // model here once it does (filled below; a request before that is refused).
  const models: LateRunParts = {};
  const registry = await loadToolRegistry({
    program,
    config,
    cliModules: opts.toolModules,
    cwd: opts.cwd,
    programDir,
    notice: opts.stderr,
    askPerson: opts.interactive ? opts.askValue : undefined,
    journaled: opts.journal !== undefined || config.config.journal !== undefined,
    env: opts.env,
    loadEmbedded: agent?.loadModules,
    openRemoteTools: opts.openRemoteTools,
    models,
    stubs: opts.testRun?.toolStubs,
    std,
  });
  // Released in reverse order of opening: the journal records the run's end first, the
  // registry (tool modules' bridges, MCP servers) closes last. Every release runs even when
  // one before it failed — a journal that cannot record the run's end must not cost the store
  // its close, the trace its usage event or the spans their export.
  const opened = new AsyncDisposableStack();
  opened.defer(async () => void (await registry.close?.()));
  let runError: unknown; // how the run ended, for the journal; set by close()
  try {
    const schemas = usesTypes(program) ? (await import("../schema/schema-table")).createSchemaTable(program) : NO_TYPES;
    // The rules that depend only on the program and its config: `luma check` applies them too.
    const ruleError = await programRuleError(program, config, async () => schemas);
    if (ruleError) throw ruleError;
    // Spec §12: every datasource has a bridge before any statement runs (connects lazily).
    // Code that a program does not use is not loaded (start-up stays near a bare binary's).
    const datasources = program.decls.some((d) => d.kind === "Datasource") ? await import("./datasources") : undefined;
    const bridges = datasources?.resolveDatasourceBridges({ program, registry, env: opts.env, programDir });
    if (bridges) opened.defer(() => bridges.close());
    const sink = opts.trace === undefined ? undefined : openTraceSink(opts.trace === "-" ? "-" : resolve(opts.cwd, opts.trace));
    if (sink) opened.defer(() => sink.close());
    // OpenTelemetry export (telemetry/otel): its code loads only when an OTLP endpoint is set.
    // Spans are sent before the process exits, also when the run failed (the error is
    // reported after this, by the CLI); a signal handler uses flushBeforeExit().
    const telemetry = otlpConfigured(opts.env)
      ? (await import("./telemetry/otel/create-otel-telemetry")).createOtelTelemetry(
          opts.env,
          opts.stderr,
          (await import("./providers/families")).telemetryNameOf,
          (await import("./tool-descriptions")).toolDescriptions(program),
        )
      : undefined;
    if (telemetry) opened.defer(() => telemetry.flush());
    const flush = telemetry?.flush;
    const unregisterFlush = flush && (await import("./telemetry/exit-flush")).onExitFlush(flush);
    if (unregisterFlush) opened.defer(unregisterFlush);
    const trace = fanOut(sink && ((e: object) => sink.emit(e)), telemetry?.observe, opts.observe);
    const usage = program.decls.some((d) => d.kind === "Model") ? (await import("./usage/usage-ledger")).createUsageLedger() : undefined;
    // The usage event goes to the trace and the spans, so it is released before them.
    if (usage) opened.defer(() => (usage.empty ? undefined : reportUsage(usage, { trace, stderr: opts.usage ? opts.stderr : undefined })));
    // Spec §11: the configured idempotency store opens (and purges) before the first statement —
    // last of the startup steps, because it creates files: a program rejected by any check
    // above leaves nothing behind.
    // A test starts from nothing: the in-memory store (none configured), no journal — so no
    // test sees another's claims, and `luma test` writes nothing a later run would read.
    const isolated = opts.testRun !== undefined;
    const idempotencyStore = await openIdempotencyStore(isolated ? undefined : config.config.idempotency_store, {
      projectDir: config.projectDir,
      env: opts.env,
      warn: opts.stderr,
    });
    if (idempotencyStore) opened.defer(() => idempotencyStore.close?.());
    // Stored threads: opened only for a program that calls thread(id) (a test's too: its threads are the store's).
    const threadsConfig = config.config.threads;
    const threads = threadsConfig && firstStoredThreadCall(program)
      ? await (await import("./stores/threads/open-thread-store")).openThreadStore(threadsConfig, { projectDir: config.projectDir, env: opts.env })
      : undefined;
    if (threads) opened.defer(() => threads.close());
    // Durable runs: the journal opens last of all (it creates files too), and takes the run's
    // lease — or, for a program serving calls, gives each call a run of its own (call-runs.ts).
    const journalContext = {
      cliPath: opts.journal === undefined ? undefined : { path: resolve(opts.cwd, opts.journal), shown: opts.journal },
      projectDir: config.projectDir,
      env: opts.env,
    };
    const callRuns = opts.servedBy && !isolated ? await openCallRuns(config.config, journalContext, opts.file) : undefined;
    if (callRuns) opened.defer(() => callRuns.close());
    const journal = isolated || opts.servedBy ? undefined : await startJournalRun(config.config, { ...journalContext, runId: opts.runId, program: opts.file, stderr: opts.stderr });
    if (journal) opened.defer(() => endJournalRun(journal, runError));
    const journalOf = callRuns ? () => callRuns.journal() : () => journal;
    const runCount = createHandlerRunCount();
    const tools = createToolInvoker({
      program,
      schemas,
      registry: runCount.wrap(registry),
      config: config.config,
      env: opts.env,
      warn: opts.stderr,
      trace,
      approve: opts.interactive ? opts.approve : undefined,
      askValue: opts.interactive ? opts.askValue : undefined,
      idempotencyStore,
      statements: bridges && datasources!.statementToolPlans({ program, schemas, bridges, warn: opts.stderr, trace }),
      get journal() {
        return journalOf();
      },
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
          get journal() {
            return journalOf();
          },
          usage,
          offline: opts.testRun?.offline,
          ...opts.askHooks,
        })
      : undefined;
    if (ask) models.sample = (await import("./ask/sample-with-model")).sampleWithModel(ask);
    if (opts.interactive) models.approve = opts.approve;
    models.trace = trace;
    // Opened without a failure: from here the run owns what was opened, and its close releases it.
    const owned = opened.move();
    const close = (error?: unknown) => {
      runError = error;
      return releaseAll(owned);
    };
    return { schemas, tools, ask, journal, callRuns, telemetry, close, handlerRuns: runCount.runs, threads, parallelLimit: config.config.parallel_limit, maxAgentDepth: config.config.max_agent_depth };
  } catch (e) {
    await releaseAll(opened);
    throw e;
  }
}

/**
 * Releases everything the stack owns (every release runs, whatever fails), then throws the
 * first failure itself — the one the run reports — not the SuppressedError chaining them all.
 */
async function releaseAll(opened: AsyncDisposableStack): Promise<void> {
  try {
    await opened.disposeAsync();
  } catch (e) {
    let first = e;
    // Each later failure wraps the ones before it: SuppressedError(later, earlier).
    while (first instanceof SuppressedError) first = first.suppressed;
    throw first;
  }
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

/**
 * luma:std's reach (docs/language/std-tools.md), for a program that imports one of its
 * tools: the files root (checked to be a directory when a file tool is imported, E1301)
 * and the allowed hosts. A built agent's default root is its executable's directory.
 */
async function stdSettingsOf(
  program: Program, config: LoadedConfig, programDir: string, opts: Omit<StartOptions, "args">, built: boolean,
): Promise<StdSettings | undefined> {
  const stdTools = program.decls.filter((d) => d.kind === "Tool" && d.span.file === STD_MODULE).map((d) => d.name);
  if (stdTools.length === 0) return undefined;
  const { resolveStdSettings, requireFilesRoot } = await import("./tools/std/std-settings");
  const { STD_FILE_TOOLS } = await import("./tools/std/std-handlers");
  const settings = resolveStdSettings({
    config, programDir, env: opts.env,
    agentDir: built ? dirname(process.execPath) : undefined,
    configGiven: opts.configPath !== undefined,
  });
  if (stdTools.some((t) => STD_FILE_TOOLS.has(t as never))) requireFilesRoot(settings, config.config.std?.files_root !== undefined);
  return settings;
}

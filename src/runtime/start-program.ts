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
  /** `--usage`: print the per-model token (and cost) table on stderr when the run ends. */
  usage?: boolean;
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
  // OpenTelemetry export (telemetry/otel): its code loads only when an OTLP endpoint is set.
  const telemetry = otlpConfigured(opts.env) ? (await import("./telemetry/otel/create-otel-telemetry")).createOtelTelemetry(opts.env, opts.stderr) : undefined;
  const unregisterFlush = telemetry && (await import("./telemetry/exit-flush")).onExitFlush(telemetry.flush);
  const trace = fanOut(sink && ((e: object) => sink.emit(e)), telemetry?.observe);
  const hasModel = program.decls.some((d) => d.kind === "Model");
  const usage = hasModel ? (await import("./usage/usage-ledger")).createUsageLedger() : undefined;
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
    unregisterFlush?.();
    await telemetry?.flush();
    throw e;
  }
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
    });
    // `ask` only exists with a model; its code (providers, cassettes) loads only then.
    const ask = hasModel
      ? (await import("./ask/create-ask-runner")).createAskRunner({
          program,
          schemas,
          tools,
          env: opts.env,
          warn: opts.stderr,
          trace,
          record: opts.record === undefined ? undefined : { path: resolve(opts.cwd, opts.record), label: opts.record },
          replay: opts.replay === undefined ? undefined : { path: resolve(opts.cwd, opts.replay), label: opts.replay },
          usage,
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
      telemetry,
    });
  } finally {
    await bridges?.close();
    await idempotencyStore?.close?.();
    if (usage && !usage.empty) await reportUsage(usage, { trace, stderr: opts.usage ? opts.stderr : undefined });
    sink?.close();
    // Spans are sent before the process exits, also when the run failed (the error is
    // reported after this finally, by the CLI); a signal handler uses flushBeforeExit().
    unregisterFlush?.();
    await telemetry?.flush();
  }
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

async function reportUsage(
  ledger: import("./usage/usage-ledger").UsageLedger,
  out: { trace?: Observer; stderr?: (line: string) => void },
): Promise<void> {
  const { runUsageEvent } = await import("./usage/usage-ledger");
  out.trace?.(runUsageEvent(ledger));
  if (out.stderr) for (const line of (await import("./usage/usage-table")).usageTable(ledger)) out.stderr(line);
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

/**
 * A pipeline step (spec §9): one small module per numbered step, composed in
 * `pipeline.ts` like middleware: `run(ctx, next)` may stop the call (throw), answer it
 * without going further (cache hit, idempotent replay), or call `next` and act on the way
 * back out (cache write, telemetry).
 *
 * `applies(plan)` is asked once per (agent, tool) plan when its chain is built, so a step
 * that cannot matter for that tool costs nothing per call. Steps return a value or a
 * promise; a step with nothing to do after `next` returns `next(ctx)` directly rather
 * than awaiting it, which keeps synchronous handlers synchronous through the chain.
 */
import type { ContentThunk } from "../../telemetry/telemetry";
import type { Program } from "../../../syntax/ast";
import type { ContextFieldSource, LumaConfig } from "../../../config/config-types";
import type { ToolHandler } from "../../../luma-module";
import type { SchemaTable } from "../../../schema/schema-table-types";
import type { Clock } from "../../base/clock";
import type { IdempotencyStore } from "../../stores/idempotency-store";
import type { CallContext } from "./call-context";
import type { CallPlan } from "./call-plan";
import type { DeadlineScheduler } from "./deadline-scheduler";
import type { RunJournal } from "../../journal/run-journal";
import type { AskValue } from "../tool-invoker-types";

export type Next = (ctx: CallContext) => unknown;

export interface Step {
  /** The spec's number and name, e.g. "2 credential check". */
  readonly name: string;
  /** Outermost steps wrap every other step (telemetry and the breaker see every failure). */
  readonly outermost?: boolean;
  applies(plan: CallPlan): boolean;
  run(ctx: CallContext, next: Next): unknown;
}

/** The handler signature (spec §10), as tool modules see it. */
export type { ToolHandler };

/** A `tool_contexts` field's `parse` kind, as luma.config.json declares it. */
export type ParseKind = NonNullable<ContextFieldSource["parse"]>;

/** `luma.config.json` `tool_contexts`: context name → field name → where its value comes from. */
export type ToolContextsConfig = LumaConfig["tool_contexts"];

/** What every step may use: the invoker's dependencies and its shared state. */
export interface PipelineRuntime {
  program: Program;
  schemas: SchemaTable;
  registry: { handler(name: string): ToolHandler | undefined };
  toolContexts: ToolContextsConfig;
  env: Record<string, string | undefined>;
  clock: Clock;
  /** Trace events; the thunk beside one is the call's content, read only by an opted-in span exporter. */
  trace?: (event: object, content?: ContentThunk) => void;
  warn: (line: string) => void;
  /** `writes`: the tool is a write (the question says "write tool"); false for `approval: true` on a read. */
  approve?: (tool: string, args: string, withinMs?: number, writes?: boolean, callId?: string) => Promise<boolean>;
  /** The host's asker for a person's value (the terminal, only when interactive). */
  askValue?: AskValue;
  /** `LUMA_APPROVED_TOOLS`, parsed once. */
  approvedTools: ReadonlySet<string>;
  idempotency: IdempotencyStore;
  /**
   * True when `idempotency` is the pipeline's own memory store, made with `clock`: its
   * `complete` then takes the clock reading that also ends the trace (12-telemetry-breaker.ts).
   */
  ownMemoryStore: boolean;
  /**
   * Whether claims get a heartbeat (claim-heartbeat.ts): false for a memory store, whose
   * in-flight records share the process with their owner and carry no lease.
   */
  heartbeats: boolean;
  /** Keys whose claim is held past TOOL_TIMEOUT by a handler that has not settled (timed-out-claim.ts). */
  timedOutClaims: Map<string, CallContext>;
  deadlines: DeadlineScheduler;
  /** The run's journal (durable runs); undefined without one. */
  journal: RunJournal | undefined;
  /** The run's id: the journal's, else one made for this process (the handler's `ctx.runId`). */
  runId: () => string;
}

export type StepFactory = (rt: PipelineRuntime) => Step;

export const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null && typeof v === "object" && typeof (v as { then?: unknown }).then === "function";

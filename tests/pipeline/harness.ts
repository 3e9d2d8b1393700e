/**
 * One place that builds an invoker for a test: a Luma program (parsed by the real parser,
 * checked by nothing), the real schema table, a map of handlers as the registry, a fake
 * clock, and recorders for trace events and warnings.
 */
import { parse } from "../../src/syntax/parse";
import { createSchemaTable } from "../../src/schema/schema-table";
import type { AgentDecl, Program } from "../../src/syntax/ast";
import type { SchemaTable } from "../../src/schema/schema-table-types";
import { createToolInvoker, type ToolContextsConfig, type ToolHandler } from "../../src/runtime/tools/pipeline";
import type { IdempotencyStore } from "../../src/runtime/stores/idempotency-store";
import type { MethodCallState, ToolCallRequest } from "../../src/runtime/tools/tool-invoker-types";
import { LumaError } from "../../src/diagnostics/luma-error";
import { FakeClock } from "./fake-clock";

const parsed = new Map<string, { program: Program; schemas: SchemaTable }>();

/** Parsed once per source text: the AST and schema table are read-only, so tests may share them. */
const compiled = (source: string) => {
  let c = parsed.get(source);
  if (c === undefined) {
    const r = parse(source, "test.luma");
    if (!r.program) throw new Error(`test program does not parse: ${JSON.stringify(r.diagnostics)}`);
    parsed.set(source, (c = { program: r.program, schemas: createSchemaTable(r.program) }));
  }
  return c;
};

export const programOf = (source: string): Program => compiled(source).program;

export interface HarnessOptions {
  handlers?: Record<string, ToolHandler>;
  env?: Record<string, string | undefined>;
  contexts?: ToolContextsConfig;
  approve?: (tool: string) => Promise<boolean>;
  store?: IdempotencyStore;
}

export const harness = (source: string, opts: HarnessOptions = {}) => {
  const { program, schemas } = compiled(source);
  const clock = new FakeClock();
  const events: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  const handlers = opts.handlers ?? {};
  const invoker = createToolInvoker({
    program,
    schemas,
    registry: { handler: (name) => handlers[name] },
    config: { tool_contexts: opts.contexts ?? {} },
    env: opts.env ?? {},
    clock,
    trace: (e) => events.push(e as Record<string, unknown>),
    warn: (line) => warnings.push(line),
    approve: opts.approve,
    idempotencyStore: opts.store,
  });
  const agent = (name: string) => program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === name)!;
  const call = (tool: string, input: unknown, extra: Partial<ToolCallRequest> = {}) =>
    invoker.call({ tool, input, mode: "direct", ...extra });
  /** A call from an agent's method; pass the same `methodCall` to share one breaker count. */
  const callAs = (agentName: string, tool: string, input: unknown, methodCall: MethodCallState = { failures: 0 }) =>
    invoker.call({ tool, input, mode: "direct", agent: agent(agentName), methodCall });
  return { program, clock, events, warnings, invoker, call, callAs, agent };
};

/** The rejection of `p` as a LumaError (fails the test when `p` resolves). */
export const failure = async (p: Promise<unknown>): Promise<LumaError> => {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof LumaError)) throw new Error(`expected a LumaError, got ${String(e)}`);
    return e;
  }
  throw new Error("expected the call to fail, but it succeeded");
};

/** Lets pending promise callbacks run (no timers involved). */
export const settle = () => new Promise<void>((r) => setImmediate(r));

/** A promise whose resolution the test controls. */
export const deferred = <T = unknown>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

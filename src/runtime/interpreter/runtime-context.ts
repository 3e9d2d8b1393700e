/**
 * The state of one run (`Runtime`: the host, the program's functions and agents indexed by
 * name, the call depth) and of one function activation (`Frame`: its variables).
 *
 * Scoping (spec §7): every function call gets one flat variable map — blocks do not open
 * scopes. Top-level code has its own frame, holding `args`. Top-level `fn`s see only their
 * parameters (not top-level variables). An agent method's frame remembers its agent and
 * the `MethodCallState` of the agent method call it belongs to.
 */
import type { AgentDecl, FnDecl, Program, Span, Stmt } from "../../syntax/ast";
import type { SchemaTable } from "../../schema/schema-table-types";
import type { MethodCallState, ToolInvoker } from "../tools/tool-invoker-types";
import type { AskRunner } from "../ask/ask-types";
import type { Telemetry } from "../telemetry/telemetry";
import { asyncAnalysisOf, type AsyncAnalysis } from "./scope-analysis";
import { resolutionOf, type Binding, type NameResolution, type ResolvedUnit } from "../../language/name-resolution";
import type { SourceOf } from "./runtime-errors";
import type { Value } from "./values";
import type { StepScope } from "../journal/step-scope";
import type { CallRun } from "../journal/call-runs";
import type { ThreadStore } from "../stores/threads/thread-message";

/** What the interpreter needs from its embedder (the CLI, the library API, tests). */
export interface InterpreterHost {
  /** Command-line arguments after the file, seen as `args` in top-level code. */
  args: string[];
  schemas: SchemaTable;
  tools: ToolInvoker;
  /** One call per `print(…)`, without the newline. */
  stdout: (line: string) => void;
  /** Text as it is, no newline added (`stream ask`); absent, a streamed answer is printed as one line when whole. */
  stdoutText?: (text: string) => void;
  /** Warnings: lines starting `warning:`. */
  stderr: (line: string) => void;
  /** Source text of a file, for `file:line:col` in runtime errors. */
  sourceOf: (file: string) => string | undefined;
  now?: () => Date;
  /**
   * How a call from outside the program (callAgentMethod, a served chat turn) runs: as a
   * journal run of its own when a program serving calls has a journal (call-runs.ts).
   * Absent: as it is.
   */
  callRun?: CallRun;
  /** Runs `ask` (spec §7); absent when the program declares no model. */
  ask?: AskRunner;
  /** The reason the run was stopped (a signal, a test's deadline), if it was: a `while` checks it when it yields, a call every so many calls. */
  stopped?: () => unknown;
  /** Span export (OpenTelemetry); absent unless configured. */
  telemetry?: Pick<Telemetry, "invokeAgent" | "executeAgentTool">;
  /** `parallel for` without `limit`: at most this many branches at once (`parallel_limit` in luma.config.json; absent: 8). */
  parallelLimit?: number;
  /** How many times a tool's handler ran in this run (`calls`); absent: none counted. */
  handlerRuns?: (tool: string) => number;
  /** Threads (issue #26 §1): the configured store of `thread(id)`, and what names this run's exchanges. */
  threads?: ThreadHost;
  /** An environment variable (`env(name)`); absent: none is set. */
  env?: (name: string) => string | undefined;
  /** The run's standard input (`read_line`, `read_all`); absent: an empty one (`luma test`). */
  stdin?: StdinSource;
  /** The config's `max_agent_depth`: how deep agents called as tools may nest (agent-tools.ts); absent, 4. */
  maxAgentDepth?: number;
  /** `luma eval`: the case this run is for (its dataset line, seen as `case`) and where its scores go; absent in any other run. */
  evalCase?: EvalCaseHost;
}

/** One case of an eval (runtime/testing/eval/): the line of the dataset, and the sink of its `score`s. */
export interface EvalCaseHost {
  value: Value;
  score(name: string, value: boolean | number): void;
}

export interface ThreadHost {
  /** The `"threads"` store of luma.config.json; absent, `thread(id)` was refused at start-up. */
  store?: ThreadStore;
  /**
   * A journaled run's id: an exchange is named by it and the ask's step, so a resumed run
   * names its asks' exchanges as before. Absent (no journal), each exchange gets a fresh name.
   */
  runKey?: string;
}

/** Standard input as the stdin builtins read it: line by line, or the rest at once. */
export interface StdinSource {
  /** The next line without its line ending; null at the end of input. */
  readLine(): string | null;
  /** Everything not read yet ("" at the end of input). */
  readAll(): string;
}

export interface AgentEntry {
  decl: AgentDecl;
  methods: Map<string, FnDecl>;
}

/** Deep recursion becomes a RUNTIME_ERROR here, long before the JS stack runs out. */
export const MAX_CALL_DEPTH = 1000;

export interface Runtime {
  host: InterpreterHost;
  sourceOf: SourceOf;
  /** The agents by name (first declaration wins, as in the name resolution): their methods, for calls and `luma mcp`. */
  agents: Map<string, AgentEntry>;
  analysis: AsyncAnalysis;
  /** What each name of the program's code refers to, and each body's variables (`language/name-resolution.ts`). */
  names: NameResolution;
  /** User function / method calls currently active. */
  depth: number;
}

export interface Frame {
  rt: Runtime;
  vars: Map<string, Value>;
  /** The code unit running (`language/name-resolution.ts`): what its names and calls mean; absent for an empty caller frame. */
  unit?: ResolvedUnit;
  /** The variables this body binds anywhere (the unit's): read before assignment, they are `null`. */
  assigned: ReadonlyMap<string, Binding>;
  /** The agent whose method is running; undefined at top level and in top-level fns. */
  agent?: AgentEntry;
  methodCall?: MethodCallState;
  /** The parameters the agent was given (`Support(u).m(…)`, issue #25): every frame of that method call holds them. */
  agentArgs?: ReadonlyMap<string, Value>;
  /** Numbers this activation's steps (journal step ids, the handler's `ctx.stepId`). */
  scope: StepScope;
  /**
   * A `parallel` branch's cancellation (under the caller's, exec-parallel.ts): the tool calls
   * and agent method calls the branch makes, and the functions it calls, pass it on.
   */
  signal?: AbortSignal;
  /** Set by `return`; every block loop stops when it sees it. */
  returned: boolean;
  returnValue: Value;
  /** Where the `return` was, for a return-type error. */
  returnSpan?: Span;
  /** Set by `break` / `continue`: blocks stop at it, and the innermost loop consumes it. */
  jump?: "break" | "continue";
}

export function createRuntime(program: Program, host: InterpreterHost): Runtime {
  const agents = new Map<string, AgentEntry>();
  for (const d of program.decls) {
    // First declaration wins, as in the checker's symbol table.
    if (d.kind === "Agent" && !agents.has(d.name)) {
      const methods = new Map<string, FnDecl>();
      for (const m of d.methods) if (!methods.has(m.name)) methods.set(m.name, m);
      agents.set(d.name, { decl: d, methods });
    }
  }
  return { host, sourceOf: (f) => host.sourceOf(f), agents, analysis: asyncAnalysisOf(program), names: resolutionOf(program), depth: 0 };
}

/** A body that is no code unit of the program (the empty caller of an outside method call) binds nothing. */
const NO_VARIABLES: ReadonlyMap<string, Binding> = new Map();

export function createFrame(
  rt: Runtime,
  body: readonly Stmt[],
  scope: StepScope,
  agent?: AgentEntry,
  methodCall?: MethodCallState,
  agentArgs?: ReadonlyMap<string, Value>,
): Frame {
  const unit = rt.names.unitOf(body);
  // An agent's parameters are variables of each of its frames (read-only: the checker rejects assigning one).
  const vars = agentArgs ? new Map(agentArgs) : new Map<string, Value>();
  return { rt, vars, unit, assigned: unit?.variables ?? NO_VARIABLES, agent, methodCall, agentArgs, scope, returned: false, returnValue: null };
}

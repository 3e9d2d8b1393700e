/**
 * The contract between the interpreter and the tool call pipeline (spec §9).
 * The pipeline implementation lives beside this file (`pipeline.ts` + one file per step).
 */
import type { AgentDecl } from "../../syntax/ast";

/** One open budget (issue #27 §5, usage/budgets.ts): an agent's declared limits and what its call has used so far. */
export interface OpenBudget {
  agent: string;
  tokens?: number;
  usd?: number;
  usedTokens: number;
  usedUsd: number;
}

/**
 * Where a call's progress goes (an MCP client's progress token, src/mcp/): each pipeline step
 * as it starts (`done` of `total` steps of the call's plan) and each provider turn of an `ask`
 * (no total). Absent everywhere else, so a call without it runs the plain chain of steps (pipeline.ts).
 */
export type ProgressSink = (message: string, done?: number, total?: number) => void;

/** State that lives for one agent method call (the circuit breaker counts failures here, §9). */
export interface MethodCallState {
  failures: number;
  /**
   * The cancellation of the whole method call (an MCP client cancelling `Agent.method`,
   * src/mcp/): every tool handler the method's calls reach sees it abort.
   */
  signal?: AbortSignal;
  /** The MCP client's asker for a person's value (src/mcp/): every client tool and approval note the method's calls reach asks it. */
  askValue?: AskValue;
  /**
   * The asker of approvals for every call this method call reaches (`luma serve`'s chat: the
   * protocol's approval request); between the call's own and the host's. `callId` is a native
   * call's id, so the asker can name the call it asks about.
   */
  approve?: (tool: string, args: string, withinMs: number, writes?: boolean, callId?: string) => Promise<boolean>;
  /** Progress of every tool call and `ask` turn of the method call (an MCP client's progress token). */
  progress?: ProgressSink;
  /** The scopes its caller was granted (an MCP client's OAuth token): every tool call is held to them too. */
  scopes?: readonly string[];
  /** How deep in agents called as tools this method call runs (issue #27 §1): absent, 1 (the outermost). */
  agentDepth?: number;
  /** The budgets this method call runs under, outermost first (runtime/usage/budgets.ts): each response is charged to all. */
  budgets?: readonly OpenBudget[];
}

export interface ToolCallRequest {
  tool: string;
  input: unknown;
  /** "direct" for `tool x(...)` in code, "native" when a model asked for the call. */
  mode: "direct" | "native";
  /** The calling agent; undefined for top-level calls (no agent policies apply, default timeout). */
  agent?: AgentDecl;
  /** One per agent method call; undefined at top level. */
  methodCall?: MethodCallState;
  /**
   * The caller's own cancellation (an MCP client's `notifications/cancelled`): aborting it
   * aborts the handler's AbortSignal, as the tool's deadline does.
   */
  signal?: AbortSignal;
  /**
   * Asks this call's user to approve a write tool (an MCP client's elicitation); overrides the
   * invoker's `approve`. `withinMs` is the tool's timeout: an asker that cannot wait on a person
   * for ever (a remote client) gives up after it.
   */
  approve?: (tool: string, args: string, withinMs: number, writes?: boolean, callId?: string) => Promise<boolean>;
  /**
   * Asks this call's user for a value (an MCP client's elicitation): a client tool's answer,
   * an approval's note. Overrides the invoker's `askValue` (the terminal's).
   */
  askValue?: AskValue;
  /** This call's progress, step by step (overrides the method call's). */
  progress?: ProgressSink;
  /**
   * The scopes the caller was granted (an MCP client's OAuth token, src/mcp/oauth-access.ts),
   * besides the agent's `tool_scopes`: a tool whose `scope` is not among them is refused.
   */
  scopes?: readonly string[];
  /**
   * The call's position in the run (step-scope.ts), e.g. `main/3`: its journal receipt's key
   * and the handler's `ctx.stepId`. Undefined for calls made outside a program (tests, benches).
   */
  stepId?: string;
  /** A native call's id from the model's turn (traces and spans correlate by it). */
  callId?: string;
}

export interface ToolInvoker {
  /** Runs the whole pipeline; resolves with the validated output or rejects with a LumaError. */
  call(req: ToolCallRequest): Promise<unknown>;
}

/**
 * What a person is asked for: a client tool's answer (`handler: "client"`), the note an
 * approval needs (`approval: Schema`), or an MCP server's elicitation (`tool` is then the
 * server's name, `args` its message, and a field left empty takes its `default`).
 */
export interface ValueRequest {
  purpose: "answer" | "approval" | "elicitation";
  tool: string;
  /** The call's arguments as `luma runs` shows them (secret-looking fields hidden, long text cut). */
  args: string;
  /** The wanted type as written: `Confirmed`, `string[]`. */
  schemaName: string;
  /** Its JSON Schema (what an MCP client's form is built from). */
  jsonSchema: Record<string, unknown>;
  /** The first problem the program's own validator finds with a value; undefined when it fits. */
  problem(value: unknown): string | undefined;
  /** The tool's timeout: an asker that cannot wait on a person for ever (a remote client) gives up after it. */
  withinMs: number;
  /** A native call's id from the model's turn: what a chat client knows the call by. */
  callId?: string;
}

/** The person's value, already checked with `problem`; undefined when they declined. */
export type AskValue = (req: ValueRequest) => Promise<{ value: unknown } | undefined>;

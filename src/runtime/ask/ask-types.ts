/**
 * The contract between the interpreter and `ask` (spec §7): the interpreter evaluates the
 * prompt and hands over the agent, the agent method call's state (the circuit breaker counts
 * native tool failures there too) and the target type; the runner returns the validated value.
 */
import type { AgentDecl, TypeRef } from "../../syntax/ast";
import type { MethodCallState } from "../tools/tool-invoker-types";
import type { ToolCall, ToolResult, TranscriptItem } from "../providers/provider-types";
import type { AgentToolCaller } from "./agent-tools";

export interface AskRequest {
  agent: AgentDecl;
  methodCall: MethodCallState;
  /** The rendered prompt text. */
  prompt: string;
  target: TypeRef;
  /** `using tool x`: forced on the first request. */
  usingTool?: string;
  /** The `ask` node: what its prepared plan is cached under. */
  site: object;
  /** `file:line:col` of the ask, ending the messages of errors the ask raises itself. */
  location: string;
  /** The ask's position in the run (step-scope.ts): its provider requests and native calls are numbered under it. */
  stepId?: string;
  /**
   * `stream ask` (issue #26 §2): the answer is plain text (no response format), handed here
   * piece by piece as it arrives — text before tool calls too — and returned whole.
   * `replayed`: a turn the journal answered (a resumed run), its text all at once — a chat
   * client that continues the turn has it already.
   */
  onText?: (delta: string, replayed?: boolean) => void;
  /**
   * `luma serve`'s chat stream (issue #26 §4): each native tool round as it happens — the
   * model's calls before they run, then their results (errors included) in the same order.
   */
  onToolRound?: ToolRoundObserver;
  /** An agent with parameters or `when` tools (issue #25): what this ask is told of its context. */
  context?: AskContext;
  /**
   * `ask … in t` (issue #26 §1): the thread's messages sent before the prompt, and where the
   * ask hands its exchange on success — the user prompt, each tool-calling assistant turn
   * with its results, and the answer's text — for the thread to append (nothing on failure).
   */
  thread?: {
    history: readonly TranscriptItem[];
    onExchange: (exchange: AskExchange) => void;
  };
  /**
   * The cancellation of the code that asks (a `parallel` branch whose sibling failed, an MCP
   * client's cancel): a provider request in flight is aborted, and no further one is sent.
   */
  signal?: AbortSignal;
  /** Runs another agent's method the model called as a tool (issue #27 §1, agent-tools.ts); given by the interpreter. */
  callAgent?: AgentToolCaller;
}

export interface ToolRoundObserver {
  calls(calls: readonly ToolCall[]): void;
  results(results: readonly ToolResult[]): void;
}

/** The agent's context for one `ask`, computed by the interpreter from the agent's parameters. */
export interface AskContext {
  /** The `system` with the parameters filled in (undefined: the declared text as is). */
  system?: string;
  /** Tools whose `when` condition is false, with the condition's source: not offered, and refused if called. */
  inactive: ReadonlyMap<string, string>;
}

/** What a successful ask adds to its thread: the transcript items after the history, and the answer (a string as is, else its JSON). */
export interface AskExchange {
  items: readonly TranscriptItem[];
  /** Per item, the agent that produced it (undefined for the user's prompt): after a handoff, not the ask's own agent. */
  agents: readonly (string | undefined)[];
  answer: string;
  /** The agent that gave the answer (the last one handed to, or the ask's own). */
  answeredBy: string;
}

export interface AskRunner {
  ask(req: AskRequest): Promise<unknown>;
}

/**
 * The contract between the interpreter and the tool call pipeline (spec §9).
 * The pipeline implementation lives beside this file (`pipeline.ts` + one file per step).
 */
import type { AgentDecl } from "../../syntax/ast";

/** State that lives for one agent method call (the circuit breaker counts failures here, §9). */
export interface MethodCallState {
  failures: number;
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
  /** A native call's id from the model's turn (traces and spans correlate by it). */
  callId?: string;
}

export interface ToolInvoker {
  /** Runs the whole pipeline; resolves with the validated output or rejects with a LumaError. */
  call(req: ToolCallRequest): Promise<unknown>;
}

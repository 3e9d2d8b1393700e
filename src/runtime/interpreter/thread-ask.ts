/**
 * `ask … in t` from the interpreter's side (issue #26 §1): the operand must be a thread, the
 * agent's `history_limit` bounds what is sent, and in a journaled run the exchange is named by
 * the run and the ask's step (thread-values.ts says why); otherwise each gets a fresh name.
 */
import type { Span } from "../../syntax/ast";
import type { AskRequest, AskRunner } from "../ask/ask-types";
import { askSettingsOf } from "../tools/steps/agent-ask-settings";
import { errorAt } from "./runtime-errors";
import type { Frame } from "./runtime-context";
import { isThread, type ThreadHandle } from "./thread-values";
import { typeName, type Value } from "./values";

export function threadOperand(f: Frame, v: Value, span: Span): ThreadHandle {
  if (isThread(v)) return v;
  throw errorAt(f.rt.sourceOf, "RUNTIME_ERROR", `'ask … in' expects a Thread, got ${typeName(v)}`, span);
}

export function askInThread(f: Frame, thread: ThreadHandle, runner: AskRunner, req: AskRequest): Promise<unknown> {
  const runKey = f.rt.host.threads?.runKey;
  const exchangeId = runKey !== undefined && req.stepId !== undefined ? `${runKey}/${req.stepId}` : crypto.randomUUID();
  return thread.askIn(runner, req, askSettingsOf(req.agent).historyLimit, req.agent.name, exchangeId);
}

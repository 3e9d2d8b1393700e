/**
 * `ask … in t` from the interpreter's side (issue #26 §1): the operand must be a thread, the
 * agent's `history_limit` bounds what is sent, and in a journaled run the exchange is named by
 * the run and the ask's step (thread-values.ts says why); otherwise each gets a fresh name.
 */
import type { Span } from "../../syntax/ast";
import type { AskRequest, AskRunner } from "../ask/ask-types";
import { askSettingsOf } from "../tools/steps/agent-ask-settings";
import { errorAt } from "./runtime-errors";
import type { Frame, Runtime } from "./runtime-context";
import { unjournaledCall, type CallRunOptions } from "../journal/call-runs";
import { topLevelScope } from "../journal/step-scope";
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

/**
 * A chat turn's ask made from outside the program's code (a `luma serve` chat, a `luma chat`
 * line without `--method`): one call of its own (call-runs.ts). With a journal it is the
 * run's one step, `main/1` — its requests and tool calls recorded under it, its exchange
 * named by the run — as `ask … in t` at top level would be.
 */
export function outsideThreadAsk(rt: Runtime, thread: ThreadHandle, runner: AskRunner, req: AskRequest, runOptions?: CallRunOptions): Promise<unknown> {
  return (rt.host.callRun ?? unjournaledCall)((ownRun) => {
    const stepId = ownRun ? topLevelScope().nextStep() : undefined;
    const runKey = rt.host.threads?.runKey;
    const exchangeId = runKey !== undefined && stepId !== undefined ? `${runKey}/${stepId}` : crypto.randomUUID();
    return thread.askIn(runner, { ...req, stepId }, askSettingsOf(req.agent).historyLimit, req.agent.name, exchangeId);
  }, runOptions);
}

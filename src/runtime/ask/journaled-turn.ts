/**
 * `ask` in a journaled run: each provider request is a step (kind "model", id
 * `<ask step>.req<n>`, journal/step-scope.ts) whose receipt holds the answer, so a resumed ask does
 * not send a request that was already answered — the flow (ask-flow.ts) takes the recorded
 * answer, and being deterministic given its answers and its tool results, rebuilds the same
 * transcript and goes on live from the first request without a receipt. A failed request
 * (PROVIDER_ERROR after its HTTP retries) is recorded as well, so the retry decision the
 * flow took is taken again.
 *
 * The digest covers what the model is asked (model, system text, transcript, tool
 * declarations, tool choice, final format) and never the key or headers. So a request the
 * journal answers needs no key: a missing one (or a missing endpoint) is thrown only for a
 * request to be sent, before its begin receipt — never recorded as the step's outcome.
 * A recorded answer that is not the shape a provider adapter returns stops the run naming
 * the journal (an edited row), instead of failing somewhere inside the flow.
 */
import type { ResolvedModel, TurnRequest, TurnResult } from "../providers/provider-types";
import { assertSendable } from "../providers/resolve-model";
import { canonicalJson } from "../base/canonical-json";
import { journalErrors } from "../journal/journal-errors";
import type { RunJournal, StepDetail } from "../journal/run-journal";
import { askRequestId } from "../journal/step-scope";
import { redactedInput } from "../tools/steps/pending-approvals";

export const journaledTurn = (
  journal: RunJournal,
  askStep: string,
  n: number,
  model: ResolvedModel,
  turn: TurnRequest,
  send: () => Promise<TurnResult>,
  agent?: string,
): Promise<TurnResult> => {
  const asked = canonicalJson({
    provider: model.provider,
    model: model.name,
    system: turn.system ?? null,
    // An assistant turn is digested as sent (`native`): its read-back text and calls, kept for
    // telemetry, would only repeat it — and change the digest of journals written before them.
    // A thread's stored turn (no `native`, issue #26 §1) is digested by its neutral text and calls.
    transcript: turn.transcript.map((i) => (i.kind !== "assistant" ? i : i.native === undefined ? { kind: i.kind, text: i.text ?? "", toolCalls: i.toolCalls ?? [] } : { kind: i.kind, native: i.native })),
    tools: turn.tools?.wire ?? null,
    toolChoice: turn.toolChoice,
    format: turn.format?.wire ?? null,
  });
  const stepId = askRequestId(askStep, n);
  // A recorded answer is data anyone with the journal could edit: its shape is checked before the flow reads it
  // (its content then meets the ask's schema as a live answer does).
  const checkRecorded = (answer: unknown) => {
    if (!isTurnResult(answer)) throw journalErrors.malformed(journal.backend.shown, journal.runId, stepId, "not a model answer Luma writes");
  };
  return journal.step(stepId, "model", model.decl, asked, send, () => assertSendable(model), checkRecorded, (answer) => turnDetail(model, turn, agent, answer));
};

/**
 * What `luma ui`'s timeline shows of the request: the system text and the messages as sent
 * (provider-neutral: a user's text, an assistant's text and calls, tool results), and with
 * the answer its tokens and cost. The key and headers are not part of a turn, so never here.
 */
const turnDetail = (model: ResolvedModel, turn: TurnRequest, agent: string | undefined, answer?: TurnResult): StepDetail => ({
  ...(agent === undefined ? {} : { agent }),
  provider: model.provider,
  model_name: model.name,
  system: turn.system ?? null,
  messages: turn.transcript.map((i) =>
    i.kind === "user"
      ? { role: "user", text: i.text }
      : i.kind === "assistant"
        ? { role: "assistant", text: i.text ?? "", tool_calls: (i.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, input: redactedInput(c.args) })) }
        : { role: "tool", results: i.results.map((r) => ({ id: r.call.id, name: r.call.name, output: redactedInput(r.content), is_error: r.isError })) },
  ),
  ...(answer === undefined ? {} : { usage: answer.usage ?? null, cost_usd: costOf(model, answer) }),
});

/** USD for the answer's tokens at the model's prices; null without a price (unknown, not free). */
const costOf = (model: ResolvedModel, answer: TurnResult): number | null => {
  const p = model.price;
  if (p === undefined || answer.usage === undefined) return null;
  return ((answer.usage.input ?? 0) * (p.inPerMtok ?? 0) + (answer.usage.output ?? 0) * (p.outPerMtok ?? 0)) / 1_000_000;
};

const FINISH = new Set(["tool_calls", "stop", "length", "refusal", "other"]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCall = (c: unknown): boolean => isObject(c) && typeof c.id === "string" && typeof c.name === "string" && typeof c.nativeId === "boolean";
const isUsage = (u: unknown): boolean =>
  isObject(u) && ["input", "output", "cached", "cacheWrite", "reasoning"].every((k) => u[k] === undefined || typeof u[k] === "number");
/** The answer's id, model and finish reason (response-meta.ts): absent in journals written before them. */
const isResponseMeta = (r: unknown): boolean =>
  r === undefined || (isObject(r) && ["id", "model", "finishReason"].every((k) => r[k] === undefined || typeof r[k] === "string"));

const isTurnResult = (v: unknown): v is TurnResult =>
  isObject(v) &&
  typeof v.text === "string" &&
  Array.isArray(v.toolCalls) &&
  v.toolCalls.every(isCall) &&
  typeof v.finish === "string" &&
  FINISH.has(v.finish) &&
  isUsage(v.usage) &&
  isResponseMeta(v.response) &&
  (v.refusal === undefined || typeof v.refusal === "string");

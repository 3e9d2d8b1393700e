/**
 * `ask` in a journaled run: each provider request is a step (kind "model", id
 * `<ask step>.req<n>`, step-scope.ts) whose receipt holds the answer, so a resumed ask does
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
 */
import type { ResolvedModel, TurnRequest, TurnResult } from "../providers/provider-types";
import { assertSendable } from "../providers/resolve-model";
import { canonicalJson } from "../tools/steps/canonical-json";
import type { RunJournal } from "./run-journal";
import { askRequestId } from "./step-scope";

export const journaledTurn = (
  journal: RunJournal,
  askStep: string,
  n: number,
  model: ResolvedModel,
  turn: TurnRequest,
  send: () => Promise<TurnResult>,
): Promise<TurnResult> => {
  const asked = canonicalJson({
    provider: model.provider,
    model: model.name,
    system: turn.system ?? null,
    transcript: turn.transcript,
    tools: turn.tools?.wire ?? null,
    toolChoice: turn.toolChoice,
    format: turn.format?.wire ?? null,
  });
  return journal.step(askRequestId(askStep, n), "model", model.decl, asked, send, () => assertSendable(model));
};

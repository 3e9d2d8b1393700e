/**
 * What `luma test` scripts a mock model to answer (testing/scripted-model.ts), in the terms
 * each family's wire format renders it from: every family's record (provider-family.ts)
 * carries a `ScriptedWire` that turns one scripted turn into the response body its adapter
 * reads, so the test runs the same parsing as a run against the provider. The types live
 * here, beside the families, so a family folder needs nothing from `testing/`.
 */

export interface ScriptedCall {
  tool: string;
  input: unknown;
}

/** `{ calls, text? }` (the model calls tools), `{ answer }` (its final value), `{ text }` (a raw answer text). */
export type ScriptedTurn = { calls: ScriptedCall[]; text?: string } | { answer: unknown } | { text: string };

/**
 * One scripted turn → a response body in one wire format. `n` numbers the model's requests
 * (ids are made from it), `model` is the provider's model id, `answer` the final answer's
 * text (undefined for a tool-calling turn).
 */
export type ScriptedWire = (turn: ScriptedTurn, n: number, model: string, answer: string | undefined) => Record<string, unknown>;

/** The token counts every scripted response reports. */
export const SCRIPTED_USAGE = { input: 10, output: 5 } as const;

/** A scripted call's input as the JSON text OpenAI's wire formats carry arguments in. */
export const scriptedArguments = (call: ScriptedCall): string => JSON.stringify(call.input ?? {});

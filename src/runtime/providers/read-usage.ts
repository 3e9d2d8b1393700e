/**
 * Token usage as each provider reports it → Luma's one `Usage` shape (input, output, cached,
 * reasoning): the rules every family's reader (`readUsage` of its record, beside its adapter)
 * follows, and the two helpers they count with, so every adapter counts the same way:
 *
 * - `input` is every input token, cached ones included (as OpenAI counts; Anthropic reports
 *   cache reads and cache writes beside `input_tokens`, so they are added back);
 * - `output` is every output token, reasoning included (as OpenAI counts; Gemini reports
 *   `thoughtsTokenCount` beside `candidatesTokenCount`, so it is added);
 * - `cached` and `reasoning` are the parts of those, when the provider says.
 * A number the response does not carry stays undefined: "not reported" is not zero.
 */
import type { Usage } from "./provider-types";

/** A response's usage object, as the provider sent it (anything: it is read defensively). */
export type UsageBody = Record<string, any> | undefined;

/** One wire format's reader: its response's usage object → Luma's `Usage`. */
export type UsageReader = (usage: UsageBody) => Usage;

/** A count the provider reported: a finite non-negative number, else undefined (not reported). */
export const reported = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
/** `a` plus the counts in `rest` that were reported; undefined when `a` was not. */
export const plus = (a: number | undefined, ...rest: unknown[]): number | undefined =>
  a === undefined ? undefined : rest.reduce<number>((s, v) => s + (reported(v) ?? 0), a);

/**
 * Token usage as each provider reports it → Luma's one `Usage` shape (input, output, cached,
 * reasoning), one small reader per wire format, so every adapter counts the same way:
 *
 * - `input` is every input token, cached ones included (as OpenAI counts; Anthropic reports
 *   cache reads and cache writes beside `input_tokens`, so they are added back);
 * - `output` is every output token, reasoning included (as OpenAI counts; Gemini reports
 *   `thoughtsTokenCount` beside `candidatesTokenCount`, so it is added);
 * - `cached` and `reasoning` are the parts of those, when the provider says.
 * A number the response does not carry stays undefined: "not reported" is not zero.
 */
import type { Usage } from "../providers/provider-types";

type Obj = Record<string, any> | undefined;

const n = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
const plus = (a: number | undefined, ...rest: unknown[]): number | undefined =>
  a === undefined ? undefined : rest.reduce<number>((s, v) => s + (n(v) ?? 0), a);

/** Chat Completions `usage` (OpenAI, Azure, compatible servers). */
export const chatCompletionsUsage = (u: Obj): Usage => ({
  input: n(u?.prompt_tokens),
  output: n(u?.completion_tokens),
  cached: n(u?.prompt_tokens_details?.cached_tokens),
  reasoning: n(u?.completion_tokens_details?.reasoning_tokens),
});

/** Responses API `usage`. */
export const responsesUsage = (u: Obj): Usage => ({
  input: n(u?.input_tokens),
  output: n(u?.output_tokens),
  cached: n(u?.input_tokens_details?.cached_tokens),
  reasoning: n(u?.output_tokens_details?.reasoning_tokens),
});

/** Anthropic Messages `usage`: cache reads and writes are input too. */
export const anthropicUsage = (u: Obj): Usage => ({
  input: plus(n(u?.input_tokens), u?.cache_creation_input_tokens, u?.cache_read_input_tokens),
  output: n(u?.output_tokens),
  cached: n(u?.cache_read_input_tokens),
});

/** Gemini `usageMetadata`: thoughts are output too. */
export const geminiUsage = (u: Obj): Usage => ({
  input: n(u?.promptTokenCount),
  output: plus(n(u?.candidatesTokenCount), u?.thoughtsTokenCount),
  cached: n(u?.cachedContentTokenCount),
  reasoning: n(u?.thoughtsTokenCount),
});

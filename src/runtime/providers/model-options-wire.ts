/**
 * The model keys `provider_options` and `reasoning_effort` on the wire (issue #26 §5).
 *
 * `provider_options` is merged into the request body last, by every family alike: an object
 * merges into the object Luma wrote there (`generationConfig: { topK: 3 }` keeps Luma's
 * `temperature`), anything else replaces. The checker has refused the paths Luma writes
 * itself (`language/model-options.ts`), so a merge never overrides the messages, tools or
 * format. Keys land as own data properties: a `__proto__` key stays a key.
 *
 * `reasoning_effort` is mapped per family in the form the model takes: the levels below are
 * the token budgets of the APIs that take a budget (older Anthropic and Gemini models), the
 * level names where an API takes a level.
 */
import type { ReasoningEffort } from "../../language/model-options";
import type { ConstJson } from "../../language/value-kinds";

type Obj = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function mergeProviderOptions(body: Obj, options: { readonly [key: string]: ConstJson } | undefined): Obj {
  if (!options) return body;
  for (const [key, value] of Object.entries(options)) {
    const here = Object.hasOwn(body, key) ? body[key] : undefined;
    const merged = isPlainObject(here) && isPlainObject(value) ? mergeProviderOptions({ ...here }, value as { [key: string]: ConstJson }) : value;
    Object.defineProperty(body, key, { value: merged, enumerable: true, writable: true, configurable: true });
  }
  return body;
}

/** Anthropic's extended thinking with a token budget (models before Claude 4.6): must be ≥ 1024 and below `max_tokens`. */
export const ANTHROPIC_THINKING_BUDGET: Readonly<Record<ReasoningEffort, number>> = { low: 1024, medium: 4096, high: 16384 };

/** Gemini 2.x's `thinkingBudget` per level (2.5 Flash takes up to 24576). */
export const GEMINI_THINKING_BUDGET: Readonly<Record<ReasoningEffort, number>> = { low: 1024, medium: 8192, high: 24576 };

/** Claude models that take `thinking: { type: "enabled", budget_tokens }`: the 3.x line and Claude 4 up to 4.5. */
export const takesThinkingBudget = (model: string): boolean => /claude-3|claude-(?:opus|sonnet|haiku)-4(?:-[0-5](?:\D|$)|$)/.test(model);

/** Gemini models that take a `thinkingBudget` (the 2.x line); later ones take a `thinkingLevel`. */
export const takesGeminiBudget = (model: string): boolean => /gemini-(?:1|2)\./.test(model);

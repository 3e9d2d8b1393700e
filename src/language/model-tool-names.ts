/**
 * The names a model is offered for what is not a declared tool — another agent's method
 * (`tools: [Refunds.handle]`, issue #27 §1) and a transfer (`handoffs: [Refunds]`, §2) — and
 * the longest name providers accept. One rule for the checker (which judges the names) and
 * the runtime (which offers them), so that what was judged is what is sent.
 */

/** Providers accept tool (function) names of at most 64 characters (`^[A-Za-z0-9_-]{1,64}$` at Anthropic and OpenAI). */
export const MAX_MODEL_TOOL_NAME = 64;

/** `Refunds.handle` (or `Refunds(user).handle`) in `tools` is offered as `Refunds_handle`. */
export const agentToolName = (agent: string, method: string): string => `${agent}_${method}`;

/** `handoffs: [Refunds]` offers `transfer_to_Refunds`. */
export const transferToolName = (agent: string): string => `transfer_to_${agent}`;

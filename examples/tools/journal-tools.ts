// Tools for the durable-run examples (065, 066): a write tool that hands the call's
// `ctx.idempotencyKey` to the (pretend) downstream API, as a cooperating handler does.
import type { HandlerContext } from "luma";

export const lumaTools = {
  send_invoice: (input: { job_id: string; customer: string }, _signal?: AbortSignal, _needs?: unknown, ctx?: HandlerContext) => ({
    receipt: `sent invoice ${input.job_id} to ${input.customer} (Idempotency-Key: ${ctx?.idempotencyKey})`,
  }),
};

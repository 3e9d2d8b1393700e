// Tools for the durable-run examples (065, 066, 084): a write tool that hands the call's
// `ctx.idempotencyKey` to the (pretend) downstream API, as a cooperating handler does.
import type { HandlerContext } from "luma";

export const lumaTools = {
  send_invoice: (input: { job_id: string; customer: string }, _signal?: AbortSignal, _needs?: unknown, ctx?: HandlerContext) => ({
    receipt: `sent invoice ${input.job_id} to ${input.customer} (Idempotency-Key: ${ctx?.idempotencyKey})`,
  }),
  // 084: the approver's note (`approval: RefundNote`) arrives validated as ctx.approval.
  issue_refund: (input: { order: string; amount: number }, _signal?: AbortSignal, _needs?: unknown, ctx?: HandlerContext) => ({
    receipt: `refunded ${input.amount} on ${input.order}: ${(ctx?.approval as { reason: string } | undefined)?.reason}`,
  }),
};

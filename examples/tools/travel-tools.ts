// Tool handlers for examples/085_tanstack_port.luma (loaded by examples/stores/travel-journal.json):
// a travel desk answered from memory. `confirm_seat` has none: it is a client tool.
import type { HandlerContext } from "luma";

export const lumaTools = {
  get_weather: (input: { city: string }) => ({ city: input.city, celsius: 21, sky: "sunny" }),
  book_flight: (input: { flight: string }, _signal?: AbortSignal, _needs?: unknown, ctx?: HandlerContext) => ({
    booking: `BK-${input.flight} (Idempotency-Key: ${ctx?.idempotencyKey})`,
  }),
  // `approval: RefundNote`: the approver's note arrives validated as ctx.approval.
  refund_booking: (input: { booking: string }, _signal?: AbortSignal, _needs?: unknown, ctx?: HandlerContext) => ({
    receipt: `refunded ${input.booking}: ${(ctx?.approval as { reason: string } | undefined)?.reason}`,
  }),
};

// Tool handlers for examples/082_lazy_tools.luma: a support desk's order and account tools.
// Loaded with `--tool-module examples/tools/lazy-tools.ts`. Lazy or not, a tool's handler
// is the same: `lazy` only decides when the model is told about it.

const ok = (text: string) => ({ ok: true, text });

export const lumaTools = {
  lookup_customer: (input: { email: string }) => ({ ok: true, text: `customer c-42 (${input.email}), 3 orders` }),
  lookup_order: (input: { order_id: string }) => ok(`order ${input.order_id}: delivered, 2 items, 59.90 EUR`),
  refund_order: (input: { order_id: string; amount: number; reason: string }) => ok(`refunded ${input.amount.toFixed(2)} EUR on order ${input.order_id} (${input.reason})`),
  cancel_subscription: (input: { customer_id: string }) => ok(`subscription of ${input.customer_id} cancelled`),
  update_shipping_address: (input: { order_id: string; address: string }) => ok(`order ${input.order_id} now ships to ${input.address}`),
  send_email: (input: { to: string; subject: string }) => ok(`email "${input.subject}" sent to ${input.to}`),
  create_ticket: (input: { title: string; priority: string }) => ok(`ticket T-7 "${input.title}" (${input.priority})`),
  apply_coupon: (input: { order_id: string; code: string }) => ok(`coupon ${input.code} applied to ${input.order_id}`),
};

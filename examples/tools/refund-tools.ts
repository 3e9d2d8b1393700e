// Tools of examples/100_agents_as_tools.luma and 102_handoffs.luma: an order lookup and a refund, in memory.
export const lumaTools = {
  lookup_order: (input: { id: string }) => ({ id: input.id, status: "delivered", total: 25 }),
  issue_refund: (input: { id: string; amount: number }) => ({ id: input.id, refunded: input.amount }),
};

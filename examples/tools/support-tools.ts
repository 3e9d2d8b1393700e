// Tool handlers for examples/080_agent_context.luma (loaded with --tool-module): an order
// desk with refunds and a help-centre search, all answered from memory.
export const lumaTools = {
  lookup_order: (input: { id: number }) => ({ id: input.id, status: input.id === 7 ? "shipped" : "processing", total: 42.5 }),
  issue_refund: (input: { id: number }) => ({ id: input.id, refunded: 42.5 }),
  search_docs: (input: { query: string }) => ({ hits: [`How refunds work (${input.query})`] }),
};

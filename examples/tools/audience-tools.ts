// Tool handlers for examples/081_tool_audience.luma. Loaded with
// `--tool-module examples/tools/audience-tools.ts`. read_help_page returns a long page: the
// model is shown its first 120 characters (max_result_chars), the program all of it.

const SHIPPING =
  "Shipping: orders leave our warehouse within 2 business days. Standard delivery takes 3 to 5 business days; " +
  "express delivery takes 1 to 2 business days. Tracking links are emailed when an order ships. " +
  "Orders to remote areas may take up to 10 business days.";

export const lumaTools = {
  read_help_page: ({ url }: { url: string }) => ({ url, text: SHIPPING }),
  lookup_order: ({ id }: { id: string }) => ({ id, status: id === "7" ? "shipped" : "unknown" }),
  issue_refund: () => ({ refunded: true }),
  audit_log: () => ({ logged: true }),
};

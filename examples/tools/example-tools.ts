// Tool handlers for the examples in this folder, loaded through examples/luma.config.json.
// A handler gets the validated input, an AbortSignal and the tool's `needs`.
import { LumaToolError } from "luma";

type Doc = { kind: "Invoice"; invoice_number: string } | { kind: "Receipt"; reference: string };

export const lumaTools = {
  // Branches on the tag the runtime wrote before the handler was called.
  describe_document: (input: { doc: Doc }) => ({
    text: input.doc.kind === "Invoice" ? `invoice ${input.doc.invoice_number}` : `receipt ${input.doc.reference}`,
  }),

  // Returns bare member fields without `kind`: the runtime rejects that output.
  classify: (input: { text: string }) => ({ invoice_number: input.text }),

  // Returns the tag, as the generated types require.
  classify_tagged: (input: { text: string }) =>
    input.text.startsWith("INV") ? { kind: "Invoice", invoice_number: input.text } : { kind: "Receipt", reference: input.text },

  lookup_stock: (input: { sku: string }) => {
    if (input.sku === "missing") {
      throw new LumaToolError({
        code: "NOT_FOUND",
        message: `No stock record for ${input.sku}`,
        retryable: false,
        details: { sku: input.sku },
      });
    }
    if (input.sku === "broken") throw new Error("warehouse API returned garbage");
    return { sku: input.sku, count: input.sku.length * 3 };
  },

  // Its score breaks a soft rule: the value is kept and a warning is printed.
  rate: (input: { text: string }) => ({ text: input.text, score: 42 }),
};

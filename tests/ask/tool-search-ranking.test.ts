/**
 * The ranking behind `search_tools`, as docs/language/tools.md "Lazy tools" states it:
 * tokens (snake_case, camelCase, lowercase, plurals, filler words), field weights (name 3,
 * parameter names 2, description 1) times idf, ties in declaration order, at most 5.
 */
import { describe, expect, test } from "bun:test";
import { buildSearchIndex, rankTools, SEARCH_RESULT_LIMIT, tokens } from "../../src/runtime/ask/tool-search-ranking";
import type { ToolSpec } from "../../src/runtime/providers/provider-types";

const spec = (name: string, description: string, params: string[] = []): ToolSpec => ({
  name,
  description,
  parameters: { type: "object", properties: Object.fromEntries(params.map((p) => [p, { type: "string" }])) },
});
const names = (specs: ToolSpec[]) => specs.map((s) => s.name);

describe("search_tools ranking", () => {
  test("tokens: snake_case, camelCase, lowercase, plurals reduced, filler words and single letters dropped", () => {
    expect(tokens("getOrderStatus")).toEqual(["get", "order", "status"]);
    expect(tokens("refund_orders for the HTTPServer a x")).toEqual(["refund", "order", "http", "server"]);
    expect(tokens("Entries, addresses! boxes matches status analysis")).toEqual(["entry", "address", "box", "match", "status", "analysis"]);
  });

  test("a name match outweighs a parameter match, which outweighs a description match", () => {
    const index = buildSearchIndex([
      spec("notify_user", "Mentions an invoice in passing"),
      spec("attach_file", "Attaches a file", ["invoice_id"]),
      spec("send_invoice", "Sends it"),
      spec("other", "Nothing related"),
    ]);
    expect(names(rankTools(index, "invoice"))).toEqual(["send_invoice", "attach_file", "notify_user"]);
  });

  test("a rare word weighs more than a common one (idf); ties keep declaration order; tools scoring 0 are left out", () => {
    const index = buildSearchIndex([
      spec("list_orders", "Lists orders"),
      spec("get_order", "Gets an order"),
      spec("refund_order", "Refunds an order"),
      spec("ping", "Health check"),
    ]);
    expect(names(rankTools(index, "refund order"))[0]).toBe("refund_order");
    expect(names(rankTools(index, "order"))).toEqual(["list_orders", "get_order", "refund_order"]);
    expect(rankTools(index, "weather forecast")).toEqual([]);
  });

  test(`at most ${SEARCH_RESULT_LIMIT} tools; the same query always gives the same list`, () => {
    const index = buildSearchIndex(Array.from({ length: 20 }, (_, i) => spec(`report_${i}`, "Builds a report")));
    const first = names(rankTools(index, "report"));
    expect(first).toEqual(["report_0", "report_1", "report_2", "report_3", "report_4"]);
    expect(names(rankTools(index, "report"))).toEqual(first);
  });
});

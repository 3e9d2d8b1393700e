/** The spec's §3/§4 examples from source text, through the real parser, into the schema table. */
import { describe, expect, test } from "bun:test";
import { parse } from "../../src/syntax/parse";
import { createSchemaTable } from "../../src/schema/schema-table";
import { toJsonSchema } from "../../src/schema/json-schema";

const SOURCE = `
schema CalcResult {
  result: float
}

schema Answer {
  summary: string @desc("One sentence") @length(1, 280)
  score: int @range(0, 10) @severity("soft")
  tags?: string[] @items(0, 5)
  lang?: enum["en", "tr"] @default("en")
}

schema Invoice { invoice_number: string }
schema Receipt { reference: string }
schema Document = Invoice | Receipt tagged by kind

tool calculate(
  a: float @range(0, 1000000),
  b: float @range(0, 1000000),
  operation: enum["add", "multiply"] @desc("Operation to perform"),
  limit?: int @default(10)
) -> CalcResult {
  side_effects: "none"
  cache: true
}

tool classify(text: string) -> Document {
  side_effects: "none"
}
`;

const parsed = parse(SOURCE, "spec.luma");
const table = createSchemaTable(parsed.program!);

describe("§3–§4 from source", () => {
  test("the spec's program parses and compiles", () => {
    expect(parsed.diagnostics).toEqual([]);
    expect(table.named("Answer")).toBeDefined();
  });

  test("calculate's input schema and its @range message", () => {
    expect(toJsonSchema(table.toolInput("calculate")).required).toEqual(["a", "b", "operation"]);
    expect(table.validate({ toolInput: "calculate" }, { a: 1e7, b: 1, operation: "add" }, "input", "calculate.input").hard[0].message).toBe(
      "calculate.input.a must be <= 1000000 (@range).",
    );
  });

  test("classify's bare-member output gives the exact tagged-union message", () => {
    const tool = parsed.program!.decls.find((d) => d.kind === "Tool" && d.name === "classify");
    const returns = tool && tool.kind === "Tool" ? tool.returns : undefined;
    const r = table.validate(returns!, { invoice_number: "INV-1" }, "output", "classify.output");
    expect(r.hard.map((i) => i.message)).toEqual(["classify.output.kind must identify a tagged union member."]);
  });

  test("Answer's soft score annotates an output", () => {
    const r = table.validate({ schema: "Answer" }, { summary: "ok", score: 11 }, "output", "Answer");
    expect(r.ok).toBe(true);
    expect(r.soft.map((i) => i.path)).toEqual(["Answer.score"]);
  });
});

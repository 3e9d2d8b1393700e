/** Spec §4: the generated `__tool_<name>_input` schema, and query/command inputs (§12). */
import { describe, expect, test } from "bun:test";
import { createSchemaTable } from "../../src/schema/schema-table";
import { toJsonSchema } from "../../src/schema/json-schema";
import { isLumaError } from "../../src/diagnostics/luma-error";
import { specProgram } from "./fixtures";

const table = createSchemaTable(specProgram());

describe("§4 Tools: the generated input schema", () => {
  test("'__tool_calculate_input' is the params as an object schema, annotations visible to the model", () => {
    expect(toJsonSchema(table.toolInput("calculate"))).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["a", "b", "operation"],
      properties: {
        a: { type: "number", minimum: 0, maximum: 1000000 },
        b: { type: "number", minimum: 0, maximum: 1000000 },
        operation: { type: "string", enum: ["add", "multiply"], description: "Operation to perform" },
        limit: { type: "integer", default: 10 },
      },
    });
  });

  test("toJsonSchema is plain JSON: no TypeBox symbols, and a fresh copy each time", () => {
    const a = toJsonSchema(table.toolInput("calculate"));
    expect(Object.getOwnPropertySymbols(a)).toEqual([]);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    (a.properties as Record<string, unknown>).a = "changed";
    expect((toJsonSchema(table.toolInput("calculate")).properties as Record<string, unknown>).a).toEqual({
      type: "number",
      minimum: 0,
      maximum: 1000000,
    });
    expect(JSON.stringify(toJsonSchema(table.typeOf({ kind: "EnumType", values: ["a", "b"], span: { file: "", start: 0, end: 0 } })))).toBe(
      '{"type":"string","enum":["a","b"]}',
    );
  });

  test("validate({ toolInput }) fills 'limit?: int @default(10)' and reports with the caller's root", () => {
    expect(table.validate({ toolInput: "calculate" }, { a: 2, b: 3, operation: "add" }, "input", "calculate.input")).toEqual({
      ok: true,
      value: { a: 2, b: 3, operation: "add", limit: 10 },
      hard: [],
      soft: [],
    });
    expect(table.validate({ toolInput: "calculate" }, { a: 2000000, b: 3, operation: "add" }, "input", "calculate.input").hard).toEqual([
      { path: "calculate.input.a", rule: "@range", message: "calculate.input.a must be <= 1000000 (@range).", severity: "hard" },
    ]);
  });

  test("query and command params validate as { queryInput }", () => {
    expect(table.validate({ queryInput: "add_customer" }, {}, "input", "add_customer.input").hard[0].message).toBe(
      "add_customer.input.name is required (required).",
    );
    expect(table.validate({ queryInput: "top_customers" }, { limit: 3 }, "input", "q").value).toEqual({ limit: 3 });
  });

  test("query rows validate against the row schema with defaults applied", () => {
    const rows = table.validate({ kind: "ArrayType", element: { kind: "NamedType", name: "Customer", span: { file: "", start: 0, end: 0 } }, span: { file: "", start: 0, end: 0 } }, [{ id: 1, name: "Ada" }, { id: "2", name: "Bo" }], "output", "rows");
    expect(rows.hard.map((i) => i.path)).toEqual(["rows[1].id"]);
    expect((rows.value as object[])[0]).toEqual({ id: 1, name: "Ada", tier: "basic" });
  });

  test("an undeclared tool or schema is a LumaError", () => {
    for (const run of [() => table.toolInput("nope"), () => table.validate({ schema: "Nope" }, {}, "input", "x")]) {
      try {
        run();
        throw new Error("expected a LumaError");
      } catch (e) {
        expect(isLumaError(e)).toBe(true);
      }
    }
    expect(table.named("Nope")).toBeUndefined();
  });
});

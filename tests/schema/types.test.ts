/** Spec §2: every Luma type, its JSON Schema, and what it accepts. */
import { describe, expect, test } from "bun:test";
import type { TypeRef } from "../../src/syntax/ast";
import { createSchemaTable } from "../../src/schema/schema-table";
import { toJsonSchema } from "../../src/schema/json-schema";
import { field, program, schema, t } from "./build-ast";

const table = createSchemaTable(program(schema("Point", field("x", t.int), field("y", t.int))));
const check = (ref: TypeRef, value: unknown) => table.validate(ref, value, "input", "v");

const CASES: [string, TypeRef, object, unknown[], unknown[]][] = [
  ["string", t.string, { type: "string" }, ["", "x"], [1, null, true]],
  ["int", t.int, { type: "integer" }, [0, -3, 42], [3.5, "3", null, Number.POSITIVE_INFINITY]],
  ["float", t.float, { type: "number" }, [3.5, -1e3, 42], ["3.5", null, Number.NaN]],
  ["bool", t.bool, { type: "boolean" }, [true, false], ["true", 0]],
  ["any", t.any, {}, [null, 1, "x", [1], { a: 1 }], []],
  ['enum["a", "b"]', t.enum("a", "b"), { type: "string", enum: ["a", "b"] }, ["a", "b"], ["c", 1]],
  ["int[]", t.array(t.int), { type: "array", items: { type: "integer" } }, [[], [1, 2]], [[1.5], "x", {}]],
  ["int[][]", t.array(t.array(t.int)), { type: "array", items: { type: "array", items: { type: "integer" } } }, [[[1], []]], [[1]]],
];

describe("§2 Types", () => {
  for (const [name, ref, json, good, bad] of CASES) {
    test(`'${name}' is ${JSON.stringify(json)}`, () => {
      expect(toJsonSchema(table.typeOf(ref))).toEqual(json as Record<string, unknown>);
    });
    test(`'${name}' accepts ${JSON.stringify(good)} and rejects ${JSON.stringify(bad)}`, () => {
      for (const v of good) expect(check(ref, v).ok).toBe(true);
      for (const v of bad) {
        const r = check(ref, v);
        expect(r.ok).toBe(false);
        expect(r.hard.length).toBeGreaterThan(0);
      }
    });
  }

  test("'an int is a valid float'", () => {
    const r = check(t.float, 7);
    expect(r).toEqual({ ok: true, value: 7, hard: [], soft: [] });
  });

  test("type mismatches are rule 'type' with the expected and actual type", () => {
    expect(check(t.int, 3.5).hard).toEqual([
      { path: "v", rule: "type", message: "v must be an integer, got number (type).", severity: "hard" },
    ]);
    expect(check(t.bool, "yes").hard[0].message).toBe("v must be a boolean, got string (type).");
  });

  test("enum values outside the list are rule 'enum'", () => {
    expect(check(t.enum("en", "tr"), "de").hard).toEqual([
      { path: "v", rule: "enum", message: 'v must be one of "en", "tr" (enum).', severity: "hard" },
    ]);
  });

  test("array items are checked with their index in the path", () => {
    const r = check(t.array(t.array(t.int)), [[1], [2, "x"]]);
    expect(r.hard.map((i) => i.path)).toEqual(["v[1][1]"]);
  });

  test("'Name' is the schema Name, inlined", () => {
    expect(toJsonSchema(table.typeOf(t.named("Point")))).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["x", "y"],
      properties: { x: { type: "integer" }, y: { type: "integer" } },
    });
    expect(table.typeOf(t.named("Point"))).toBe(table.named("Point")!);
    expect(check(t.array(t.named("Point")), [{ x: 1, y: 2 }]).ok).toBe(true);
    expect(check(t.array(t.named("Point")), [{ x: 1 }]).hard[0].path).toBe("v[0].y");
  });
});

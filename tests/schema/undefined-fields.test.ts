/**
 * "An `undefined` field counts as absent, as in JSON" (docs/pipeline.md), at the validator:
 * both directions judge the value without such fields, hand back a value without them, and
 * never touch the caller's object (src/schema/absent-fields.ts is copy-on-write).
 */
import { describe, expect, test } from "bun:test";
import { createSchemaTable } from "../../src/schema/schema-table";
import { withoutUndefinedFields } from "../../src/schema/absent-fields";
import { ann, field, program, schema, t } from "./build-ast";

const table = createSchemaTable(
  program(schema("Inner", field("n", t.int)), schema("S", field("x", t.int), field("inner", t.named("Inner")), field("d", t.int, ann("default", 7)))),
);

describe("an undefined field is absent", () => {
  for (const direction of ["input", "output"] as const) {
    test(`${direction}: an unknown field, a nested one and a defaulted one set to undefined are accepted and left out`, () => {
      const value = { x: 1, extra: undefined, inner: { n: 2, more: undefined }, d: undefined };
      const r = table.validate({ schema: "S" }, value, direction, "S");
      expect(r.hard).toEqual([]);
      expect(r.ok).toBe(true);
      expect(r.value).toEqual({ x: 1, inner: { n: 2 }, d: 7 });
      expect(Object.keys(r.value as object)).toEqual(["x", "inner", "d"]);
      expect(Object.keys(value)).toEqual(["x", "extra", "inner", "d"]); // the caller's object is untouched
    });

    test(`${direction}: a required field set to undefined is missing, and nothing else is reported`, () => {
      const r = table.validate({ schema: "S" }, { x: undefined, inner: { n: 1 }, extra: undefined }, direction, "S");
      expect(r.ok).toBe(false);
      expect(r.hard.map((i) => i.rule)).toEqual(["required"]);
    });
  }

  test("withoutUndefinedFields copies only along the path to a dropped field, and survives a cycle", () => {
    const kept = { a: 1 };
    const value = { kept, list: [{ b: undefined, c: 2 }], none: undefined };
    const out = withoutUndefinedFields(value) as typeof value;
    expect(out).toEqual({ kept: { a: 1 }, list: [{ c: 2 }] } as never);
    expect(out.kept).toBe(kept);
    expect(withoutUndefinedFields(kept)).toBe(kept);
    const cyclic: Record<string, unknown> = { x: undefined };
    cyclic.self = cyclic;
    expect(Object.keys(withoutUndefinedFields(cyclic) as object)).toEqual(["self"]);
  });
});

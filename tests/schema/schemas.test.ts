/** Spec §3 "Schemas": objects, optional fields, defaults, unknown properties, paths. */
import { describe, expect, test } from "bun:test";
import { createSchemaTable } from "../../src/schema/schema-table";
import { toJsonSchema } from "../../src/schema/json-schema";
import { ann, field, program, schema, t } from "./build-ast";
import { specProgram } from "./fixtures";

const table = createSchemaTable(specProgram());
const answer = (value: unknown, direction: "input" | "output" = "output") =>
  table.validate({ schema: "Answer" }, value, direction, "Answer");

describe("§3 Schemas", () => {
  test("the Answer schema compiles to the spec's JSON Schema", () => {
    expect(toJsonSchema(table.named("Answer")!)).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["summary", "score"],
      properties: {
        summary: { type: "string", description: "One sentence", minLength: 1, maxLength: 280 },
        score: { type: "integer", minimum: 0, maximum: 10 },
        tags: { type: "array", items: { type: "string" }, minItems: 0, maxItems: 5 },
        lang: { type: "string", enum: ["en", "tr"], default: "en" },
      },
    });
  });

  test("'name?: makes the field optional (not in required)'", () => {
    expect(answer({ summary: "s", score: 1 }).ok).toBe(true);
  });

  test("a missing required field is rule 'required'", () => {
    expect(answer({ score: 1 }).hard).toEqual([
      { path: "Answer.summary", rule: "required", message: "Answer.summary is required (required).", severity: "hard" },
    ]);
  });

  test("'Unknown properties are rejected (additionalProperties: false)'", () => {
    const r = answer({ summary: "s", score: 1, mood: "happy" });
    expect(r.ok).toBe(false);
    expect(r.hard).toEqual([
      { path: "Answer.mood", rule: "unknown field", message: "Answer.mood is not a known field (unknown field).", severity: "hard" },
    ]);
  });

  test("a non-object is rule 'type'", () => {
    expect(answer([1]).hard[0].message).toBe("Answer must be an object, got array (type).");
    expect(answer(null).hard[0].message).toBe("Answer must be an object, got null (type).");
  });

  test("'@default: filled in when missing', on a copy — the caller's object is never mutated", () => {
    const given = Object.freeze({ summary: "s", score: 1 });
    const r = answer(given);
    expect(r.value).toEqual({ summary: "s", score: 1, lang: "en" });
    expect(given).toEqual({ summary: "s", score: 1 });
    expect(answer({ summary: "s", score: 1, lang: "tr" }).value).toEqual({ summary: "s", score: 1, lang: "tr" });
  });

  test("'a field with a default is optional (not required) with or without ?'", () => {
    const json = toJsonSchema(table.typeOf(t.named("Customer"))) as { required: string[] };
    expect(json.required).toEqual(["id", "name"]);
    const q = table.validate({ queryInput: "top_customers" }, {}, "input", "top_customers.input");
    expect(q).toEqual({ ok: true, value: { limit: 10 }, hard: [], soft: [] });
  });

  test("defaults are filled in nested objects and array items, each with its own copy", () => {
    const tbl = createSchemaTable(
      program(
        schema("Opts", field("tags", t.array(t.string), ann("default", ["x"]))),
        schema("Box", field("opts", t.named("Opts")), field("all", t.array(t.named("Opts")))),
      ),
    );
    const r = tbl.validate({ schema: "Box" }, { opts: {}, all: [{}, { tags: [] }] }, "output", "Box");
    expect(r.ok).toBe(true);
    const v = r.value as { opts: { tags: string[] }; all: { tags: string[] }[] };
    expect(v).toEqual({ opts: { tags: ["x"] }, all: [{ tags: ["x"] }, { tags: [] }] });
    v.opts.tags.push("mutated");
    expect(v.all[0].tags).toEqual(["x"]);
    const again = tbl.validate({ schema: "Box" }, { opts: {}, all: [] }, "output", "Box").value as { opts: { tags: string[] } };
    expect(again.opts.tags).toEqual(["x"]);
  });

  test("issues have full dotted paths and a stable order: type, rules, fields in declaration order, unknown fields", () => {
    const r = answer({ extra: 1, tags: ["a", 2, "c", 4, "e", "f"], score: "9", summary: "" }, "input");
    expect(r.hard.map((i) => [i.path, i.rule])).toEqual([
      ["Answer.summary", "@length"],
      ["Answer.score", "type"],
      ["Answer.tags", "@items"],
      ["Answer.tags[1]", "type"],
      ["Answer.tags[3]", "type"],
      ["Answer.extra", "unknown field"],
    ]);
    expect(answer({ extra: 1, tags: ["a", 2, "c", 4, "e", "f"], score: "9", summary: "" }, "input")).toEqual(r);
  });

  test("an empty root still gives a sentence", () => {
    const r = table.validate(t.int, "x", "input", "");
    expect(r.hard[0].message).toBe("value must be an integer, got string (type).");
  });
});

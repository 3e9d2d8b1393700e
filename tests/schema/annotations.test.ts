/** Spec §3 "Field annotations": each annotation's keyword, and a passing and a failing value. */
import { describe, expect, test } from "bun:test";
import type { Annotation, ConstValue, TypeRef } from "../../src/syntax/ast";
import { createSchemaTable } from "../../src/schema/schema-table";
import { toJsonSchema } from "../../src/schema/json-schema";
import { ANNOTATIONS, annotationProblem, annotationSpec, typeCategory } from "../../src/schema/annotations";
import { isLumaError, type LumaError } from "../../src/diagnostics/luma-error";
import { ann, field, program, schema, t } from "./build-ast";

/** One field `f` of `type` with `annotation`, validated as the schema `S`. */
function fieldTable(type: TypeRef, ...annotations: Annotation[]) {
  const table = createSchemaTable(program(schema("S", field("f", type, ...annotations))));
  return {
    json: () => (toJsonSchema(table.named("S")!) as { properties: { f: object } }).properties.f,
    check: (value: unknown) => table.validate({ schema: "S" }, { f: value }, "input", "S"),
  };
}

// [annotation, type, JSON keywords, valid values, [invalid value, expected message]]
const CASES: [Annotation, TypeRef, object, unknown[], [unknown, string][]][] = [
  [ann("desc", "Operation"), t.string, { type: "string", description: "Operation" }, ["x"], []],
  [
    ann("range", 0, 1000000),
    t.float,
    { type: "number", minimum: 0, maximum: 1000000 },
    [0, 1000000, 2.5],
    [
      [1000001, "S.f must be <= 1000000 (@range)."],
      [-1, "S.f must be >= 0 (@range)."],
    ],
  ],
  [ann("min", 1), t.int, { type: "integer", minimum: 1 }, [1, 99], [[0, "S.f must be >= 1 (@min)."]]],
  [ann("max", 5), t.int, { type: "integer", maximum: 5 }, [5, -9], [[6, "S.f must be <= 5 (@max)."]]],
  [
    ann("length", 2, 3),
    t.string,
    { type: "string", minLength: 2, maxLength: 3 },
    ["ab", "abc"],
    [
      ["a", "S.f must be at least 2 characters long (@length)."],
      ["abcd", "S.f must be at most 3 characters long (@length)."],
    ],
  ],
  [ann("pattern", "^[a-z]+$"), t.string, { type: "string", pattern: "^[a-z]+$" }, ["abc"], [["aB", "S.f must match the pattern /^[a-z]+$/ (@pattern)."]]],
  [ann("format", "email"), t.string, { type: "string", format: "email" }, ["ada@example.com"], [["ada@", "S.f must be a valid email (@format)."], ["a b@c.de", "S.f must be a valid email (@format)."]]],
  [ann("format", "uri"), t.string, { type: "string", format: "uri" }, ["https://example.com/x?y=1", "mailto:a@b.c"], [["example.com", "S.f must be a valid uri (@format)."]]],
  [ann("format", "uuid"), t.string, { type: "string", format: "uuid" }, ["123e4567-e89b-12d3-a456-426614174000"], [["123e4567", "S.f must be a valid uuid (@format)."]]],
  [ann("format", "date"), t.string, { type: "string", format: "date" }, ["2024-02-29"], [["2023-02-29", "S.f must be a valid date (@format)."], ["2024-1-01", "S.f must be a valid date (@format)."]]],
  [ann("format", "date-time"), t.string, { type: "string", format: "date-time" }, ["2024-05-01T12:30:00Z", "2024-05-01T12:30:00.5+02:00"], [["2024-05-01 25:00:00Z", "S.f must be a valid date-time (@format)."], ["2024-05-01T12:30:00", "S.f must be a valid date-time (@format)."]]],
  [
    ann("items", 1, 2),
    t.array(t.int),
    { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 2 },
    [[1], [1, 2]],
    [
      [[], "S.f must have at least 1 item (@items)."],
      [[1, 2, 3], "S.f must have at most 2 items (@items)."],
    ],
  ],
];

describe("§3 Field annotations", () => {
  for (const [annotation, type, json, good, bad] of CASES) {
    const label = `@${annotation.name}(${annotation.args.map((a) => JSON.stringify(a.value)).join(", ")})`;
    test(`${label} becomes ${JSON.stringify(json)}`, () => {
      expect(fieldTable(type, annotation).json()).toEqual(json);
    });
    test(`${label} accepts ${JSON.stringify(good)}${bad.length ? " and names path and rule when it fails" : ""}`, () => {
      const { check } = fieldTable(type, annotation);
      for (const v of good) expect(check(v)).toMatchObject({ ok: true, hard: [], soft: [] });
      for (const [v, message] of bad) {
        const r = check(v);
        expect(r.ok).toBe(false);
        expect(r.hard).toEqual([{ path: "S.f", rule: `@${annotation.name}`, message, severity: "hard" }]);
      }
    });
  }

  test("@default becomes 'default' and is filled in", () => {
    const f = fieldTable(t.int, ann("default", 10));
    expect(f.json()).toEqual({ type: "integer", default: 10 });
    expect(createSchemaTable(program(schema("S", field("f", t.int, ann("default", 10))))).validate({ schema: "S" }, {}, "input", "S").value).toEqual({ f: 10 });
  });

  test("rules apply only when the type matched: a wrong type is one 'type' issue, not a rule failure", () => {
    expect(fieldTable(t.string, ann("length", 1, 2)).check(5).hard.map((i) => i.rule)).toEqual(["type"]);
  });

  test("a pattern is an ECMAScript regex, unanchored unless written so", () => {
    const f = fieldTable(t.string, ann("pattern", "\\d{3}"));
    expect(f.check("ab123").ok).toBe(true);
    expect(f.check("ab12").ok).toBe(false);
  });
});

describe("§3 annotation facts (the table the checker shares)", () => {
  test("ANNOTATIONS lists the spec's annotations with arity and the types they apply to", () => {
    const facts = Object.fromEntries(ANNOTATIONS.map((a) => [a.name, [a.arity, a.appliesTo]]));
    expect(facts).toEqual({
      desc: [1, "all"],
      default: [1, "all"],
      range: [2, ["int", "float"]],
      min: [1, ["int", "float"]],
      max: [1, ["int", "float"]],
      length: [2, ["string"]],
      pattern: [1, ["string"]],
      format: [1, ["string"]],
      items: [2, ["array"]],
      severity: [1, "all"],
    });
    expect(annotationSpec("range")!.keywords).toEqual(["minimum", "maximum"]);
  });

  const PROBLEMS: [string, ConstValue[], TypeRef, string | undefined][] = [
    ["range", [0, 10], t.int, undefined],
    ["range", [0, 10], t.string, "Annotation '@range' does not apply to type 'string'."],
    ["length", [1, 2], t.enum("a"), "Annotation '@length' does not apply to type 'enum'."],
    ["items", [1, 2], t.named("X"), "Annotation '@items' does not apply to type 'schema'."],
    ["colour", ["red"], t.string, "Unknown annotation '@colour'."],
    ["range", [1], t.int, "Annotation '@range' expects 2 arguments, got 1."],
    ["range", [5, 1], t.int, "Annotation '@range' minimum must not be greater than its maximum."],
    ["length", [-1, 2], t.string, "Annotation '@length' argument 1 must be a non-negative integer."],
    ["format", ["phone"], t.string, `Annotation '@format' must be one of "email", "uri", "uuid", "date", "date-time".`],
    ["severity", ["loud"], t.int, `Annotation '@severity' must be one of "hard", "soft".`],
    ["pattern", ["("], t.string, "Annotation '@pattern' is not a valid ECMAScript regular expression."],
    ["desc", [3], t.any, "Annotation '@desc' argument 1 must be a string."],
  ];
  for (const [name, args, type, expected] of PROBLEMS) {
    test(`@${name}(${args.map((a) => JSON.stringify(a)).join(", ")}) on ${typeCategory(type)}: ${expected ?? "fine"}`, () => {
      expect(annotationProblem(name, args, typeCategory(type))).toBe(expected);
    });
  }

  test("a bad annotation reaching the schema compiler is a startup LumaError, not a crash", () => {
    const attempt = (type: TypeRef, a: Annotation) => {
      try {
        createSchemaTable(program(schema("S", field("f", type, a))));
      } catch (e) {
        return e as LumaError;
      }
      throw new Error("expected a LumaError");
    };
    const e = attempt(t.string, ann("range", 0, 1));
    expect(isLumaError(e)).toBe(true);
    expect(e.phase).toBe("startup");
    expect(e.message).toBe("Annotation '@range' does not apply to type 'string'.");
    expect(e.diagnostics?.[0].span).toBeDefined();
    expect(attempt(t.int, ann("default", "ten")).message).toBe(
      "Annotation '@default' value does not match type 'int': f must be an integer, got string (type).",
    );
  });

  test("a @default that breaks the field's own rules is rejected too", () => {
    expect(() => createSchemaTable(program(schema("S", field("f", t.int, ann("range", 0, 5), ann("default", 9)))))).toThrow(
      "Annotation '@default' value does not match type 'int': f must be <= 5 (@range).",
    );
  });
});

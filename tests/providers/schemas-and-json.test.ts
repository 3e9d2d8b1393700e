import { describe, expect, test } from "bun:test";
import { dropOptionalNulls, toOpenAiStrict } from "../../src/runtime/providers/openai/openai-strict-schema";
import { isStrictCompatible } from "../../src/runtime/providers/schema-subset";
import { toAnthropicSchema } from "../../src/runtime/providers/anthropic/anthropic-schema";
import { safeJsonParse } from "../../src/runtime/providers/safe-json";

const answer = {
  type: "object",
  additionalProperties: false,
  required: ["summary"],
  properties: {
    summary: { type: "string", maxLength: 280 },
    tags: { type: "array", items: { type: "string" }, maxItems: 5 },
    doc: {
      anyOf: [
        { type: "object", additionalProperties: false, required: ["kind", "n"], properties: { kind: { type: "string", const: "A" }, n: { type: "integer" }, note: { type: "string" } } },
        { type: "object", additionalProperties: false, required: ["kind"], properties: { kind: { type: "string", const: "B" } } },
      ],
    },
  },
};

describe("§7 OpenAI strict mode", () => {
  test('"every property listed in required; an optional field as required-and-nullable" — nested objects and union members too', () => {
    const s = toOpenAiStrict(answer) as any;
    expect(s.required).toEqual(["summary", "tags", "doc"]);
    expect(s.properties.tags.anyOf[1]).toEqual({ type: "null" });
    const member = s.properties.doc.anyOf[0].anyOf[0];
    expect(member.required).toEqual(["kind", "n", "note"]);
    expect(member.properties.note).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(answer.required).toEqual(["summary"]); // the program's schema is not touched
  });
  test('"drops the null on return before local validation", following the original schema (tagged member by its tag)', () => {
    const v: any = { summary: "s", tags: null, doc: { kind: "A", n: 1, note: null } };
    dropOptionalNulls(answer, v);
    expect(v).toEqual({ summary: "s", doc: { kind: "A", n: 1 } });
    const required: any = { summary: null };
    dropOptionalNulls(answer, required);
    expect(required).toEqual({ summary: null }); // a required field's null stays, for validation to reject
  });
  test("Luma's `any` ({}) cannot be strict: such a schema goes with strict false", () => {
    expect(isStrictCompatible(toOpenAiStrict(answer))).toBe(true);
    expect(isStrictCompatible({ type: "object", properties: { x: {} }, required: ["x"] })).toBe(false);
  });
});

describe("§7 Anthropic's schema subset", () => {
  test("unsupported keywords move into description; supported ones stay", () => {
    const s = toAnthropicSchema({
      type: "object",
      additionalProperties: false,
      required: ["a"],
      properties: {
        a: { type: "string", description: "Name", maxLength: 9, pattern: "^x", format: "email" },
        b: { type: "array", items: { type: "integer", minimum: 1 }, minItems: 1, maxItems: 3 },
        c: { type: "string", format: "ipv9", default: "z" },
      },
    }) as any;
    expect(s.properties.a).toEqual({ type: "string", description: "Name\n\n{maxLength: 9}", pattern: "^x", format: "email" });
    expect(s.properties.b).toEqual({ type: "array", items: { type: "integer", description: "{minimum: 1}" }, minItems: 1, description: "{maxItems: 3}" });
    expect(s.properties.c).toEqual({ type: "string", description: '{format: "ipv9", default: "z"}' });
  });
});

describe("model JSON is parsed without reaching a prototype", () => {
  test("__proto__ keys are dropped, also when escaped; constructor stays an own data property", () => {
    const v = safeJsonParse('{"__proto__":{"x":1},"a":{"\\u005f_proto__":{"x":2},"constructor":{"prototype":{"x":3}}}}') as any;
    expect(Object.keys(v)).toEqual(["a"]);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v.a)).toEqual(["constructor"]);
    expect(({} as any).x).toBeUndefined();
    const copy = { ...v.a };
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});

/** The key of the cache and the fingerprint of idempotency (spec §9): canonical input JSON. */
import { describe, expect, test } from "bun:test";
import { canonicalJson } from "../../src/runtime/base/canonical-json";
import { inputFingerprint } from "../../src/runtime/tools/steps/input-fingerprint";

describe("§9 canonical input JSON", () => {
  test("object key order is irrelevant, at every depth", () => {
    const a = { b: 1, a: { y: [1, { d: 1, c: 2 }], x: "s" } };
    const b = { a: { x: "s", y: [1, { c: 2, d: 1 }] }, b: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"x":"s","y":[1,{"c":2,"d":1}]},"b":1}');
  });

  test("array order, types and values still count", () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
  });

  test("the caller's object is left as it was", () => {
    const v = { b: 1, a: 2 };
    canonicalJson(v);
    expect(Object.keys(v)).toEqual(["b", "a"]);
  });

  test("undefined members are dropped like JSON.stringify; scalars are plain JSON", () => {
    expect(canonicalJson({ b: undefined, a: null })).toBe('{"a":null}');
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson("x")).toBe('"x"');
  });
});

describe("§9 step 9 idempotency fingerprint (compiled per tool)", () => {
  const fingerprint = inputFingerprint(["request_id", "amount", "note", "tags", "meta", "flag"]);
  const inputs: [string, Record<string, unknown>][] = [
    ["plain scalars, unsorted", { request_id: "r-1", amount: 25, flag: true }],
    ["strings that need escaping", { request_id: 'q"uote\\back\nline\u0001', note: "é ü 😀", amount: -0 }],
    ["a lone surrogate", { request_id: "\ud800x" }],
    ["numbers at the edges", { amount: 1e21, note: "x", request_id: "0.1" }],
    ["nested objects and arrays", { meta: { z: 1, a: [{ y: 2, b: 3 }] }, tags: ["b", "a"], request_id: "k" }],
    ["null and missing fields", { request_id: "k", note: null }],
    ["nothing at all", {}],
  ];
  for (const [name, input] of inputs) {
    test(`equals canonicalJson of the input: ${name}`, () => {
      expect(fingerprint(input)).toBe(canonicalJson(input));
    });
  }
});

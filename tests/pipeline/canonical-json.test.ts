/** The key of the cache and the fingerprint of idempotency (spec §9): canonical input JSON. */
import { describe, expect, test } from "bun:test";
import { canonicalJson } from "../../src/runtime/tools/steps/canonical-json";

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

import { describe, test, expect } from "bun:test";
import { isTruthy, renderValue, toJson, typeName, valuesEqual } from "../../src/runtime/interpreter/values";

describe("§7 string interpolation rendering (values.ts)", () => {
  test("strings verbatim, numbers/bools as JSON, null as null, objects and arrays as compact JSON", () => {
    expect(renderValue("a \"b\"")).toBe('a "b"');
    expect(renderValue(3.5)).toBe("3.5");
    expect(renderValue(-2)).toBe("-2");
    expect(renderValue(true)).toBe("true");
    expect(renderValue(null)).toBe("null");
    expect(renderValue({ a: 1, b: [1, "x"] })).toBe('{"a":1,"b":[1,"x"]}');
    expect(renderValue([])).toBe("[]");
  });
  test("an undefined field from a handler reads as null, never 'undefined'", () => {
    expect(renderValue(undefined)).toBe("null");
    expect(toJson(undefined)).toBe("null");
  });
});

describe("§7 equality is deep and structural (values.ts)", () => {
  test("objects compare by key set and values, in any key order", () => {
    expect(valuesEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(valuesEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(valuesEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  });
  test("arrays compare element by element; different types are never equal", () => {
    expect(valuesEqual([1, 2], [1, 2])).toBe(true);
    expect(valuesEqual([1, 2], [2, 1])).toBe(false);
    expect(valuesEqual([], {})).toBe(false);
    expect(valuesEqual(1, "1")).toBe(false);
    expect(valuesEqual(null, false)).toBe(false);
    expect(valuesEqual(null, null)).toBe(true);
  });
});

describe("§7 truthiness (values.ts)", () => {
  test("false, null, 0 and \"\" are falsy; everything else is truthy", () => {
    for (const v of [false, null, 0, ""]) expect(isTruthy(v)).toBe(false);
    for (const v of [true, 1, -1, 0.5, "0", "false", [], {}]) expect(isTruthy(v)).toBe(true);
  });
});

describe("type names in messages (values.ts)", () => {
  test("Luma names: int, float, string, bool, null, array, object", () => {
    expect([1, 1.5, "s", true, null, [], {}].map(typeName)).toEqual(["int", "float", "string", "bool", "null", "array", "object"]);
  });
});

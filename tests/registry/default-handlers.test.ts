import { describe, expect, test } from "bun:test";
import { calculate, defaultToolHandlers, LumaToolError, text_stats } from "../../src/tool-registry";
import { LumaToolError as FromLumaModule } from "../../src/luma-module";

describe("§10 built-in default handlers (src/tool-registry.ts)", () => {
  test("calculate({a, b, operation}) returns { result } for add", () => {
    expect(calculate({ a: 20, b: 22, operation: "add" })).toEqual({ result: 42 });
  });

  test("calculate({a, b, operation}) returns { result } for multiply", () => {
    expect(calculate({ a: 6, b: 2.5, operation: "multiply" })).toEqual({ result: 15 });
  });

  test("calculate: anything else throws", () => {
    expect(() => calculate({ a: 1, b: 2, operation: "divide" })).toThrow("Unsupported operation: divide");
    expect(() => calculate({ a: 1, b: 2, operation: "toString" })).toThrow("Unsupported operation");
  });

  test("text_stats: characters = string length, words = whitespace-separated words of the trimmed text", () => {
    expect(text_stats({ text: "Luma DSL" })).toEqual({ characters: 8, words: 2 });
    expect(text_stats({ text: "  one\ttwo \n three  " })).toEqual({ characters: 19, words: 3 });
  });

  test("text_stats: empty or blank text has 0 words", () => {
    expect(text_stats({ text: "" })).toEqual({ characters: 0, words: 0 });
    expect(text_stats({ text: "   " })).toEqual({ characters: 3, words: 0 });
  });

  test("the defaults are calculate and text_stats", () => {
    expect(Object.keys(defaultToolHandlers).sort()).toEqual(["calculate", "text_stats"]);
  });

  test("the legacy path re-exports the same LumaToolError as the luma module", () => {
    expect(LumaToolError).toBe(FromLumaModule);
  });
});

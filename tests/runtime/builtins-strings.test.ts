import { describe, test, expect } from "bun:test";
import { failure, output } from "./interpreter-harness";

describe("§7 string builtins", () => {
  test("split and join", async () => {
    expect(await output(`print(split("a,b,,c", ","), split("abc", ""), split("", ","), join(["a", 1, true, null], "-"), join([], ","))`)).toEqual([
      '["a","b","","c"] ["a","b","c"] [""] a-1-true-null ',
    ]);
  });
  test("trim, lower, upper", async () => {
    expect(await output(`print("[" + trim("  x y \\n") + "]", lower("ÀB"), upper("straße"))`)).toEqual(["[x y] àb STRASSE"]);
  });
  test("contains on strings and arrays (== equality), starts_with, ends_with", async () => {
    expect(await output(`print(contains("abc", "bc"), contains("abc", "x"), contains([1, { a: [2] }], { a: [2] }), contains([], 1), starts_with("abc", "ab"), ends_with("abc", "b"))`)).toEqual([
      "true false true false true false",
    ]);
  });
  test("replace replaces every occurrence, literally", async () => {
    expect(await output(`print(replace("a.b.c", ".", "$&"), replace("aaa", "a", "b"))`)).toEqual(["a$&b$&c bbb"]);
    expect((await failure(`replace("a", "", "b")`)).message).toBe("replace() cannot replace the empty string at test.luma:1:1");
  });
  test("slice strings and arrays; negative indices count from the end; out of range clamps", async () => {
    expect(await output(`print(slice("hello", 1, 3), slice("hello", -3), slice([1, 2, 3], 1), slice([1, 2, 3], 0, -1), slice("ab", 5), slice([1], -9))`)).toEqual([
      'el llo [2,3] [1,2]  [1]',
    ]);
  });
  test("a wrong kind of argument is RUNTIME_ERROR naming the builtin", async () => {
    expect((await failure(`x: any = 1\nupper(x)`)).message).toBe("upper() expects a string, got int at test.luma:2:1");
    expect((await failure(`x: any = 1\ncontains(x, 1)`)).message).toBe("contains() expects a string or an array, got int at test.luma:2:1");
    expect((await failure(`x: any = {}\njoin(x, ",")`)).message).toBe("join() expects an array, got object at test.luma:2:1");
  });
});

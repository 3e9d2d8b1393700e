import { describe, test, expect } from "bun:test";
import { failure, output } from "./interpreter-harness";

describe("§7 print(v…): 'strings raw, other values as compact JSON, joined by one space, one line'", () => {
  test("one host line per call, every value kind", async () => {
    expect(await output(`print("a b", 1, 2.5, true, null, [1, "x"], { k: "v" })\nprint()\nprint("two\\nlines")`)).toEqual([
      'a b 1 2.5 true null [1,"x"] {"k":"v"}',
      "",
      "two\nlines",
    ]);
  });
});

describe("§7 len(v)", () => {
  test("string length, array length, object key count", async () => {
    expect(await output(`print(len("héllo"), len([1, 2, 3]), len({ a: 1, b: 2 }), len(""), len([]))`)).toEqual(["5 3 2 0 0"]);
  });
  test("anything else is RUNTIME_ERROR", async () => {
    const e = await failure(`print(len(42))`);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.message).toBe("len() expects a string, an array or an object, got int at test.luma:1:7");
    expect((await failure(`len(null)`)).code).toBe("RUNTIME_ERROR");
  });
});

describe("§7 str(v): 'the text interpolation would produce'", () => {
  test("strings verbatim, others compact JSON", async () => {
    expect(await output(`print(str("s") == "s", str(1.5), str(null), str([1]), str({ a: true }))`)).toEqual([
      'true 1.5 null [1] {"a":true}',
    ]);
  });
});

describe("§7 json(v): compact JSON text", () => {
  test("strings are quoted, values compact", async () => {
    expect(await output(`print(json("s"), json(1), json(null), json({ a: [1, "b"] }))`)).toEqual(['"s" 1 null {"a":[1,"b"]}']);
  });
});

describe("§7 keys(obj)", () => {
  test("an object's keys in insertion order", async () => {
    expect(await output(`print(keys({ b: 1, a: 2 }), keys({}))`)).toEqual(['["b","a"] []']);
  });
  test("a non-object is RUNTIME_ERROR", async () => {
    expect((await failure(`keys([1])`)).message).toStartWith("keys() expects an object, got array");
  });
});

describe("§7 now(): ISO-8601", () => {
  test("the host clock, as ISO-8601", async () => {
    const now = () => new Date(Date.UTC(2025, 0, 31, 12, 30, 0));
    expect(await output(`print(now())`, { now })).toEqual(["2025-01-31T12:30:00.000Z"]);
  });
  test("without a host clock: the real time", async () => {
    const [line] = await output(`print(now())`);
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe("builtin arity", () => {
  test("a wrong argument count is RUNTIME_ERROR", async () => {
    expect((await failure(`len()`)).message).toStartWith("len() expects 1 argument(s), got 0");
    expect((await failure(`now(1)`)).message).toStartWith("now() expects 0 argument(s), got 1");
  });
  test("a builtin with a tool call as argument awaits it", async () => {
    const src = `schema R { result: float }\ntool calculate(a: float, b: float, operation: string) -> R {}\nprint(len(keys(tool calculate({ a: 1, b: 2, operation: "add" }))))`;
    expect(await output(src, { tools: { calculate: () => ({ result: 3 }) } })).toEqual(["1"]);
  });
});

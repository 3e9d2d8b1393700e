import { describe, test, expect } from "bun:test";
import { LumaError } from "../../src/diagnostics/luma-error";
import { failure, output, runSource } from "./interpreter-harness";

const TOOLS = `
schema CalcResult { result: float }
schema TextStats { characters: int  words: int }
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}
tool text_stats(text: string) -> TextStats {}
`;

const calculate = (i: any) => ({ result: i.operation === "add" ? i.a + i.b : i.a * i.b });
const text_stats = (i: any) => ({ characters: i.text.length, words: i.text.trim().split(/\s+/).filter(Boolean).length });

describe("§7 'a name assigned anywhere in the function but not yet assigned reads as null'", () => {
  test("the bonus case: bonus is null when the if did not run", async () => {
    const src = `${TOOLS}
fn report(text: string) -> string {
  stats = tool text_stats({ text: text })
  if stats.words > 3 {
    bonus = tool calculate({ a: stats.words, b: 2, operation: "multiply" })
  }
  "Stats: {stats}, bonus: {bonus}"
}
print(report("one two"))
print(report("one two three four"))`;
    expect(await output(src, { tools: { calculate, text_stats } })).toEqual([
      'Stats: {"characters":7,"words":2}, bonus: null',
      'Stats: {"characters":18,"words":4}, bonus: {"result":8}',
    ]);
  });
  test("top-level code: a variable read before its assignment is null", async () => {
    expect(await output(`print(later)\nlater = 1\nprint(later)`)).toEqual(["null", "1"]);
  });
  test("blocks do not create scopes: a variable set in a loop or branch is visible after it", async () => {
    expect(await output(`for x in [1, 2] { last = x }\nif true { inner = "y" }\nprint(last, x, inner)`)).toEqual(["2 2 y"]);
  });
});

describe("§7 if / else if / else", () => {
  test("the first true branch runs; else when none", async () => {
    const src = `fn grade(n: int) -> string {
  if n >= 90 { "A" } else if n >= 50 { "B" } else { "C" }
}
print(grade(95), grade(60), grade(10))`;
    expect(await output(src)).toEqual(["A B C"]);
  });
  test("conditions use truthiness", async () => {
    expect(await output(`if "" { print("no") } else { print("empty string is falsy") }\nif [] { print("empty array is truthy") }`)).toEqual([
      "empty string is falsy",
      "empty array is truthy",
    ]);
  });
});

describe("§7 for item in list", () => {
  test("iterates arrays in order", async () => {
    expect(await output(`total = 0\nfor n in [1, 2, 3] { total = total + n }\nprint(total)\nfor s in [] { print("never") }`)).toEqual(["6"]);
  });
  test("iterating a non-array is RUNTIME_ERROR; objects point to keys()", async () => {
    const e = await failure(`o = { a: 1 }\nfor k in o { print(k) }`);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.message).toContain("Cannot iterate over object");
    expect(e.message).toContain("keys(obj)");
    expect(e.message).toEndWith("at test.luma:2:10");
    expect((await failure(`for c in "abc" { }`)).message).toStartWith("Cannot iterate over string");
    expect((await failure(`for c in null { }`)).message).toStartWith("Cannot iterate over null");
    expect(await output(`o = { a: 1, b: 2 }\nfor k in keys(o) { print(k, o[k]) }`)).toEqual(["a 1", "b 2"]);
  });
  test("return inside a loop leaves the function", async () => {
    const src = `fn first_big(xs: int[]) -> int {
  for x in xs { if x > 10 { return x } }
  -1
}
print(first_big([1, 20, 30]), first_big([1]))`;
    expect(await output(src)).toEqual(["20 -1"]);
  });
});

describe("§7 'the return value is the value of return expr, or else of the last expression statement'", () => {
  test("return wins over later statements", async () => {
    expect(await output(`fn f() -> int {\n  return 1\n  2\n}\nprint(f())`)).toEqual(["1"]);
  });
  test("without return: the value the body ends with (an if's taken branch counts)", async () => {
    const src = `fn a() { 1\n 2 }
fn b(x: bool) { if x { "then" } else { "else" } }
fn c() { "value"\n y = 1 }
fn d() { if false { "no" } }
fn e() { }
fn g() { try { 1 / 0 } catch err { err.code } }
fn h() { for i in [1] { i } }
print(a(), b(true), b(false), c(), d(), e(), g(), h())`;
    expect(await output(src)).toEqual(['2 then else null null null RUNTIME_ERROR null']);
  });
  test("return without a value returns null", async () => {
    expect(await output(`fn f() { return\n 5 }\nprint(f())`)).toEqual(["null"]);
  });
  test("a top-level return (rejected by the checker) ends the program quietly, never a crash", async () => {
    expect(await output(`print(1)\nreturn\nprint(2)`)).toEqual(["1"]);
  });
});

describe("§7 typed assignment 'x: T = expr (the value is validated against T)'", () => {
  test("a matching value is assigned", async () => {
    expect(await output(`n: int = 3\nxs: string[] = ["a"]\nprint(n, xs)`)).toEqual(['3 ["a"]']);
  });
  test("a mismatch is VALUE_INVALID naming the path, with the location", async () => {
    const e = await failure(`x = 1\nn: int = 2.5`);
    expect(e.code).toBe("VALUE_INVALID");
    expect(e.message).toBe("n must be integer at test.luma:2:1");
    const e2 = await failure(`xs: int[] = [1, "two"]`);
    expect(e2.message).toStartWith("xs[1] must be integer");
  });
  test("a tool result validated against a schema: hard issue is VALUE_INVALID, soft issue a warning", async () => {
    const src = `${TOOLS}
schema Small { result: float @range(0, 10) }
schema Soft { result: float @range(0, 10) @severity("soft") }
s: Soft = tool calculate({ a: 20, b: 1, operation: "add" })
print(s.result)
h: Small = tool calculate({ a: 20, b: 1, operation: "add" })
print("not reached")`;
    const r = await runSource(src, { tools: { calculate } });
    expect(r.out).toEqual(["21"]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toStartWith("warning: s.result must be <= 10 (@range)");
    expect(r.error?.code).toBe("VALUE_INVALID");
    expect(r.error?.message).toStartWith("h.result must be <= 10 (@range) at test.luma:");
  });
});

class FakeToolError extends LumaError {}

describe("§7 try { } catch e { } — 'the error object is handed to e as it is'", () => {
  test("a handler's typed error reaches e with its own code, message, retryable and details", async () => {
    const src = `${TOOLS}
try {
  r = tool calculate({ a: 1, b: 2, operation: "add" })
  print("not reached")
} catch e {
  print(e.code, e.message, e.retryable, e.details, e.details.table)
}`;
    const tools = {
      calculate: () => {
        throw new FakeToolError({ code: "DB_TIMEOUT", message: "Database timed out", retryable: true, details: { table: "orders" } });
      },
    };
    expect(await output(src, { tools })).toEqual(['DB_TIMEOUT Database timed out true {"table":"orders"} orders']);
  });
  test("an error shaped like LumaToolError from another module copy is handed over unchanged too", async () => {
    const src = `${TOOLS}\ntry { tool calculate({ a: 1, b: 2, operation: "add" }) } catch e { print(e) }`;
    const foreign = Object.assign(new Error("boom"), { code: "X_FAIL", retryable: false, details: [1] });
    expect(await output(src, { tools: { calculate: () => { throw foreign; } } })).toEqual([
      '{"code":"X_FAIL","message":"boom","retryable":false,"details":[1]}',
    ]);
  });
  test("runtime errors are caught too; e has no details field when there are none", async () => {
    const src = `try { x = 1 / 0 } catch e { print(e.code, e.retryable, keys(e)) }\nprint("after")`;
    expect(await output(src)).toEqual(['RUNTIME_ERROR false ["code","message","retryable"]', "after"]);
  });
  test("an error thrown in a called function is caught by the caller's try", async () => {
    const src = `fn bad() { x = null\n x.y }\ntry { bad() } catch e { print(e.message) }`;
    expect(await output(src)).toEqual(["Cannot read field 'y' of null at test.luma:2:2"]);
  });
  test("a non-Luma JS error inside the interpreter is converted to RUNTIME_ERROR first", async () => {
    const src = `${TOOLS}\ntry { tool calculate({ a: 1, b: 2, operation: "add" }) } catch e { print(e.code, e.message) }`;
    const r = await output(src, { tools: { calculate: () => { throw new TypeError("x is not a function"); } } });
    expect(r).toEqual(["RUNTIME_ERROR Internal error while running: x is not a function at test.luma:7:7"]);
  });
  test("uncaught, the error propagates unchanged", async () => {
    const e = await failure(`${TOOLS}\ntool calculate({ a: 1, b: 2, operation: "add" })`, {
      tools: { calculate: () => { throw new FakeToolError({ code: "TOOL_TIMEOUT", message: "calculate timed out", retryable: true }); } },
    });
    expect(e).toBeInstanceOf(FakeToolError);
    expect(e.message).toBe("calculate timed out");
  });
});

import { describe, test, expect } from "bun:test";
import { LumaError } from "../../src/diagnostics/luma-error";
import { runProgram } from "../../src/runtime/interpreter/run-program";
import { WHILE_YIELD_EVERY } from "../../src/runtime/interpreter/statement-helpers";
import { failure, fakeSchemaTable, output, parseOk } from "./interpreter-harness";

describe("§7 while cond { }: iterative, the condition read before every turn", () => {
  test("counts, and a false condition runs no turn", async () => {
    expect(await output(`i = 0\nwhile i < 3 { print(i); i = i + 1 }\nwhile false { print("never") }`)).toEqual(["0", "1", "2"]);
  });
  test("a loop whose body calls a tool (the asynchronous executor)", async () => {
    const out = await output(`n = 0\nwhile n < 3 { r = tool inc({ n: n }); n = r.n }\nprint(n)`, {
      tools: { inc: (input: { n: number }) => ({ n: input.n + 1 }) },
    });
    expect(out).toEqual(["3"]);
  });
  test("a million turns: no stack growth, and it yields to the event loop on the way", async () => {
    expect(await output(`i = 0\nwhile i < 1000000 { i = i + 1 }\nprint(i)`)).toEqual(["1000000"]);
  });
});

describe("§7 break and continue: the innermost loop", () => {
  test("in for and while, through if and try blocks", async () => {
    const src = `for x in [1, 2, 3, 4, 5] {
  if x == 2 { continue }
  try {
    if x == 4 { break }
  } catch e { print("no") }
  print(x)
}
i = 0
while true {
  i = i + 1
  if i < 3 { continue }
  print("i", i)
  break
}`;
    expect(await output(src)).toEqual(["1", "3", "i 3"]);
  });
  test("nested loops: break leaves only the inner one", async () => {
    expect(await output(`for a in range(3) {\n  for b in range(3) {\n    if b > a { break }\n    print(a, b)\n  }\n}`)).toEqual([
      "0 0", "1 0", "1 1", "2 0", "2 1", "2 2",
    ]);
  });
  test("continue in a while re-reads the condition (no turn skipped)", async () => {
    expect(await output(`i = 0\nwhile i < 4 {\n  i = i + 1\n  if i == 2 { continue }\n  print(i)\n}`)).toEqual(["1", "3", "4"]);
  });
  test("return inside a loop inside a fn leaves the fn", async () => {
    expect(await output(`fn first_big(xs: int[]) -> int {\n  for x in xs {\n    if x > 10 { return x }\n  }\n  i = 0\n  while true { return -1 }\n}\nprint(first_big([1, 20, 30]), first_big([1]))`)).toEqual(["20 -1"]);
  });
});

describe("§7 field and index assignment", () => {
  test("writes into objects and arrays, nested; every name holding the value sees it", async () => {
    const src = `o = { a: { b: [1, 2] } }
alias = o
o.a.b[0] = 5
o.a.c = "new"
o["d"] = true
print(alias)`;
    expect(await output(src)).toEqual(['{"a":{"b":[5,2],"c":"new"},"d":true}']);
  });
  test("__proto__ is an ordinary field, never the prototype", async () => {
    expect(await output(`o: any = {}\no["__proto__"] = { polluted: true }\nx: any = {}\nprint(keys(o), x.polluted)`)).toEqual(['["__proto__"] null']);
  });
  test("into a value that has no fields or items, or with the wrong key kind: RUNTIME_ERROR at the target", async () => {
    for (const [src, msg] of [
      [`x: any = 1\nx.f = 2`, "Cannot assign into int: only objects and arrays have fields and items at test.luma:2:1"],
      [`x: any = null\nx[0] = 2`, "Cannot assign into null: only objects and arrays have fields and items at test.luma:2:1"],
      [`xs = [1]\nxs[-1] = 2`, "Cannot assign to item -1 of an array of 1 item(s) at test.luma:2:1"],
      [`xs: any = [1]\nxs["k"] = 2`, "Cannot assign into array with string: expected an int index at test.luma:2:1"],
      [`o: any = {}\no[1] = 2`, "Cannot assign into object with int: expected a string key at test.luma:2:1"],
    ]) {
      const e = await failure(src);
      expect(e.code).toBe("RUNTIME_ERROR");
      expect(e.message).toBe(msg);
    }
  });
  test("a tool result can be changed by the program", async () => {
    expect(await output(`r = tool get({})\nr.status = "done"\nprint(r)`, { tools: { get: () => ({ status: "new" }) } })).toEqual(['{"status":"done"}']);
  });
});

describe("§7 a top-level return ends the script", () => {
  test("nothing after it runs, in any nested block", async () => {
    expect(await output(`for x in [1, 2] {\n  print(x)\n  if x == 1 { return }\n}\nprint("after")`)).toEqual(["1"]);
  });
});

describe("a busy while yields, and a stopped run ends at the next yield", () => {
  test("host.stopped is read once every WHILE_YIELD_EVERY turns and its reason ends the loop", async () => {
    const program = parseOk(`i = 0\nwhile true { i = i + 1 }`);
    let checks = 0;
    const reason = new LumaError({ code: "RUNTIME_ERROR", message: "Interrupted by SIGINT." });
    const run = runProgram(program, {
      args: [],
      schemas: fakeSchemaTable(program),
      tools: { call: async () => null },
      stdout: () => {},
      stderr: () => {},
      sourceOf: () => undefined,
      stopped: () => (++checks >= 3 ? reason : undefined),
    });
    await expect(run).rejects.toBe(reason);
    expect(checks).toBe(3);
    expect(WHILE_YIELD_EVERY).toBeGreaterThan(1);
  });
});

/**
 * Issue #12.1–2 through the real binary: a script parses its arguments (`int`, `float`),
 * loops with `while`, ends early with a top-level `return` or `exit(code)`, and a busy
 * `while` that never waits still stops at Ctrl-C (it yields to the event loop now and
 * then; src/runtime/interpreter/statement-helpers.ts). No timed assertions: the tests wait
 * for output the program writes.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";

function script(source: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "luma-script-"));
  writeFileSync(join(dir, "app.luma"), source);
  return { dir, file: "app.luma" };
}

const run = (source: string, args: string[] = []) => {
  const { dir, file } = script(source);
  return runLuma([file, ...args], { cwd: dir });
};

describe("§7 conversions: 'args are strings'", () => {
  test("int(args[0]) compares as a number", () => {
    expect(run(`age = int(args[0])\nprint(age > 18, age + 1)`, ["30"])).toEqual({ exitCode: 0, stdout: "true 31\n", stderr: "" });
  });
  test("an argument that does not parse is a runtime error naming the value and the place (exit 1)", () => {
    const r = run(`age = int(args[0])\nprint(age)`, ["thirty"]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`int() cannot parse "thirty" as an int`);
    expect(r.stderr).toContain("app.luma:1:7");
  });
});

describe("§7 exit(code) and top-level return", () => {
  test("exit(code) ends the run with that status, quietly, after what was printed", () => {
    expect(run(`print("a")\nexit(3)\nprint("b")`)).toEqual({ exitCode: 3, stdout: "a\n", stderr: "" });
    expect(run(`print("a")\nexit(0)\nprint("b")`)).toEqual({ exitCode: 0, stdout: "a\n", stderr: "" });
  });
  test("exit inside a fn inside a try still ends the run", () => {
    expect(run(`fn stop() {\n  exit(5)\n}\ntry {\n  stop()\n} catch e {\n  print("caught")\n}\nprint("after")`)).toEqual({
      exitCode: 5,
      stdout: "",
      stderr: "",
    });
  });
  test("exit closes the trace as any ending does", () => {
    const { dir, file } = script(`for i in range(3) {\n  print(i)\n}\nexit(2)`);
    const r = runLuma([file, "--trace", "trace.jsonl"], { cwd: dir });
    expect(r).toEqual({ exitCode: 2, stdout: "0\n1\n2\n", stderr: "" });
    const trace = readFileSync(join(dir, "trace.jsonl"), "utf8");
    for (const line of trace.split("\n").filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });
  test("a top-level return ends the script with status 0", () => {
    expect(run(`if len(args) == 0 {\n  print("usage: app N")\n  return\n}\nprint("ran")`)).toEqual({ exitCode: 0, stdout: "usage: app N\n", stderr: "" });
    expect(run(`if len(args) == 0 {\n  return\n}\nprint("ran")`, ["x"]).stdout).toBe("ran\n");
  });
  test("a top-level return with a value is a check error (exit 2)", () => {
    const r = run(`return 1`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0243]: A top-level 'return' takes no value");
  });
});

describe("§7 while, break, continue, assignment into fields and items", () => {
  test("a loop with break and continue, and writes into an object and an array", () => {
    const source = `schema Order { id: int, status: string, qty: int[] }
o: Order = { id: 1, status: "new", qty: [1, 2] }
o.status = "sent"
o.qty[1] = 9
i = 0
odd = []
while true {
  i = i + 1
  if i > 7 { break }
  if i % 2 == 0 { continue }
  odd = odd + [i]
}
print(o, odd)`;
    expect(run(source)).toEqual({ exitCode: 0, stdout: '{"id":1,"status":"sent","qty":[1,9]} [1,3,5,7]\n', stderr: "" });
  });
  test("a write past an array's end is a runtime error, not a hole", () => {
    const r = run(`xs = [1]\nxs[3] = 2`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Cannot assign to item 3 of an array of 1 item(s)");
    expect(r.stderr).toContain("app.luma:2:1");
  });
  test("writing into a cached tool result never changes what the cache answers next", () => {
    const { dir, file } = script(`schema Price { amount: float, tags: string[] }
tool price(item: string) -> Price {
  side_effects: "none"
  cache: true
}
a = tool price({ item: "tea" })
a.amount = 0
a.tags[0] = "changed"
b = tool price({ item: "tea" })
b.tags[0] = "again"
print(a, b, tool price({ item: "tea" }))`);
    writeFileSync(join(dir, "tools.ts"), `export const price = () => ({ amount: 2.5, tags: ["hot"] });\n`);
    expect(runLuma([file, "--tool-module", "tools.ts"], { cwd: dir })).toEqual({
      exitCode: 0,
      stdout: '{"amount":0,"tags":["changed"]} {"amount":2.5,"tags":["again"]} {"amount":2.5,"tags":["hot"]}\n',
      stderr: "",
    });
  });
  test("a long while loop runs iteratively (no stack growth per turn)", () => {
    expect(run(`i = 0\nwhile i < 300000 {\n  i = i + 1\n}\nprint(i)`)).toEqual({ exitCode: 0, stdout: "300000\n", stderr: "" });
  });
});

describe("§7 a busy while loop still stops at a signal", () => {
  for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    test(`while true { … } with no wait inside: ${signal} exits ${status}`, async () => {
      const { dir, file } = script(`print("started")\ni = 0\nwhile true {\n  i = i + 1\n}`);
      const p = Bun.spawn([ensureBinary(), file], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const reader = p.stdout.getReader();
      let out = "";
      while (!out.includes("started\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      p.kill(signal);
      expect(await p.exited).toBe(status);
      expect(await new Response(p.stderr).text()).toBe(`Error: [RUNTIME_ERROR] Interrupted by ${signal}.\n`);
    });
  }
});

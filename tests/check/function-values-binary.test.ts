/**
 * §7, through the real `dist/luma`: a function, builtin or agent read as a value (`y = f`,
 * `calls(print)`, `x = len`, `m = A.run`) used to pass `luma check` and always stop at run
 * time with `'f' is a function; call it: f(…), not a value`. It is now check error E0253,
 * with the call as the hint — from `luma check` (text and JSON) and from a plain run, which
 * executes no statement. The same calls, and names that shadow them, still run.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const PRELUDE = `fn double(n: int) -> int {
  return n * 2
}
agent A {
  fn run() -> int {
    return 7
  }
}
print("ran")
`;

function program(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-fnvalue-"));
  const file = join(dir, "main.luma");
  writeFileSync(file, PRELUDE + body + "\n");
  return file;
}

/** [the statement, the message, the hint, the column] — each on the line after the prelude. */
const CASES: [string, string, string, number][] = [
  ["y = double", "'double' is a function, not a value.", "call it: double(…)", 5],
  ["print(calls(print))", "'print' is a builtin function, not a value.", "call it: print(…)", 13],
  ["x = len", "'len' is a builtin function, not a value.", "call it: len(…)", 5],
  ["m = A.run", "'A.run' is a method of agent 'A', not a value.", "call it: A.run(…)", 5],
  ["print(A)", "'A' is an agent, not a value.", "call one of its methods: A.method(…)", 7],
];
const LINE = PRELUDE.split("\n").length;

describe("§7 a function or agent used as a value is check error E0253", () => {
  for (const [body, message, hint, col] of CASES) {
    test(`\`${body}\`: ${message}`, () => {
      const file = program(body);
      const checked = runLuma(["check", file]);
      expect(checked.exitCode).toBe(2);
      expect(checked.stdout + checked.stderr).toContain(`main.luma:${LINE}:${col}: error[E0253]: ${message}`);
      expect(checked.stdout + checked.stderr).toContain(`hint: ${hint}`);

      const json = runLuma(["check", "--format", "json", file]);
      const [d] = (JSON.parse(json.stdout) as { diagnostics: { code: string; message: string; hints?: string[] }[] }).diagnostics;
      expect([d.code, d.message, d.hints]).toEqual(["E0253", message, [hint]]);

      // A plain run is rejected before its first statement (`print("ran")`).
      const ran = runLuma([file]);
      expect(ran.exitCode).toBe(2);
      expect(ran.stdout).toBe("");
      expect(ran.stderr).toContain(`error[E0253]: ${message}`);
      expect(ran.stderr).not.toContain("RUNTIME_ERROR");
    });
  }

  test("the calls themselves, a shadowing variable and calls(\"name\") check clean and run", () => {
    const file = program('a = double(2)\nb = A.run()\nlen = "shadow"\nprint(a, b, len, calls("lookup"))');
    const r = runLuma([file]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ran\n4 7 shadow 0\n");
    expect(r.exitCode).toBe(0);
  });
});

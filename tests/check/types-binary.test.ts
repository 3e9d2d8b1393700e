/**
 * Issue #11, through the real `dist/luma`: the programs that used to pass `luma check` and
 * fail (or silently misbehave) at run time are rejected before anything runs — exit 2, a
 * file:line:col, an E03xx code and a message that says what is wrong — both by
 * `luma check` and by a plain run, which must not execute a single statement.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../../src/syntax/parse";
import { VERSION } from "../../src/version";
import { runLuma } from "../support/luma-binary";

const PRELUDE = `schema User { name: string }
schema CalcResult { result: float }
tool calculate(a: float @range(0, 1000000), b: float @range(0, 1000000), operation: enum["add", "multiply"]) -> CalcResult {}
print("ran")
`;
const PRELUDE_LINES = PRELUDE.split("\n").length - 1;

function program(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-types-"));
  const file = join(dir, "main.luma");
  writeFileSync(file, PRELUDE + body + "\n");
  return file;
}

/** [the program's line, the rule's code, the message, the column] */
const CASES: [string, string, string, number][] = [
  ['fn greet(u: User) -> string { "hi " + u.nmae }', "E0301", "Type 'User' has no field 'nmae'.", 39],
  ['r = tool calculate({ a: 2, b: 3, operation: "add" })\nprint(r.reslt)', "E0301", "Type 'CalcResult' has no field 'reslt'.", 7],
  ['count: int = "seven"', "E0304", "Cannot assign a value of type 'string' to 'count' of type 'int'.", 14],
  ['fn answer() -> int { "forty-two" }', "E0307", "Function 'answer' must return 'int', not 'string'.", 22],
  ['x = tool calculate({ a: "two", b: 1, operation: "add" })', "E0310", "Parameter 'a' of tool 'calculate' must be 'float', not 'string'.", 25],
  ['x = tool calculate({ a: 1, b: 1, operation: "divide" })', "E0310", `Parameter 'operation' of tool 'calculate' must be "add" or "multiply", not "divide".`, 45],
  ['x = tool calculate({ a: 1, operation: "add" })', "E0308", "Missing required parameter 'b' in the call of tool 'calculate'.", 20],
  ['x = tool calculate({ a: 2000000, b: 1, operation: "add" })', "E0311", "Parameter 'a' of tool 'calculate' is 2000000, which breaks @range(0, 1000000).", 25],
  // Issue #18: a value that is null on every path (only sometimes null stays E0303's warning).
  ["x = null\nprint(x.a)", "E0302", "Cannot read field 'a' of a value of type 'null': it is not an object.", 7],
];

describe("issue #11: the motivating programs are rejected by dist/luma before running", () => {
  for (const [body, code, message, col] of CASES) {
    test(`${code}: ${message}`, () => {
      const file = program(body);
      const line = PRELUDE_LINES + body.split("\n").length;
      for (const args of [["check", file], [file]]) {
        const r = runLuma(args);
        expect(r.exitCode).toBe(2);
        expect(r.stdout).toBe(""); // nothing ran: not even the prelude's print
        expect(r.stderr).toContain(`${file}:${line}:${col}: error[${code}]: ${message}`);
        expect(r.stderr).not.toContain("    at "); // no stack trace
      }
    });
  }

  test("the hint says 'did you mean' with the declared field", () => {
    const r = runLuma(["check", program('fn greet(u: User) -> string { "hi " + u.nmae }')]);
    expect(r.stderr).toContain("hint: did you mean `name`?");
  });

  test("a possibly-null read is a warning: the program still runs (exit 0), the warning on stderr", () => {
    const file = program('schema A { b?: User }\nfn f(a: A) -> any { a.b.name }\nprint(f({ b: { name: "x" } }))');
    const r = runLuma([file]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("ran\nx\n");
    expect(r.stderr).toContain("warning[E0303]: Field 'name' is read from a value that may be null (type 'User | null').");
  });

  test("a correct program with narrowing checks clean and runs", () => {
    const file = program('schema A { b?: User }\nfn f(a: A) -> string {\n  if a.b != null { return a.b.name }\n  "none"\n}\nprint(f({}), f({ b: { name: "x" } }))');
    const check = runLuma(["check", file]);
    expect(check.exitCode).toBe(0);
    expect(check.stderr).toBe("");
    const run = runLuma([file]);
    expect(run.stdout).toBe("ran\nnone x\n");
  });

  test("runtime validation stays: a value typed `any` that breaks the contract still fails at run time", () => {
    const file = program('bad: any = { a: "two", b: 1, operation: "add" }\nx = tool calculate(bad)');
    expect(runLuma(["check", file]).exitCode).toBe(0);
    const r = runLuma([file]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[TOOL_INPUT_INVALID]");
  });

  test("an entry an older checker cached as clean is not trusted (cache format 2)", () => {
    const source = PRELUDE + 'count: int = "seven"\n';
    const file = program('count: int = "seven"');
    const cache = mkdtempSync(join(tmpdir(), "luma-types-cache-"));
    // What the checker before the type rules wrote for this program: format 1, "checked clean".
    const key = new Bun.CryptoHasher("sha256").update(`${VERSION}\0${1}\0${file}\0${source}`).digest("hex");
    mkdirSync(join(cache, "luma"), { recursive: true });
    writeFileSync(join(cache, "luma", `${key}.json`), JSON.stringify({ format: 1, version: VERSION, program: parse(source, file).program }));
    const r = runLuma([file], { env: { XDG_CACHE_HOME: cache, LUMA_NO_CACHE: undefined } });
    expect(r.stdout).toBe("");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0304]");
  });
});

describe("§7 a loop body is typed for its next turn as well (types-statements: every type the body assigns)", () => {
  test("a field read that is safe on the first turn and may be null on the next is warned about", () => {
    // Turn 1 reads `u.name` of a User; turn 2 reads it after `u = null`.
    const file = program('u = { name: "a" }\nfor i in [1, 2] {\n  print(u.name)\n  u = null\n}');
    const r = runLuma(["check", file]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`main.luma:${PRELUDE_LINES + 3}:9: warning[E0303]`);
  });

  test("a typed assignment later in the body judges an earlier reassignment on the next turn", () => {
    // Turn 1: `x = "s"` comes before `x` is declared; turn 2: after `x: int = 1` it must fit int.
    const file = program('x = 0\nfor i in [1, 2] {\n  x = "s"\n  x: int = 1\n}');
    const r = runLuma(["check", file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`main.luma:${PRELUDE_LINES + 3}:7: error[E0305]`);
  });

  test("the same holds in a while loop and in loops nested three deep", () => {
    const nested = 'x = 0\nfor a in [1] {\n  for b in [1] {\n    while true {\n      x = "s"\n      x: int = 1\n      break\n    }\n  }\n}';
    const r = runLuma(["check", program(nested)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`main.luma:${PRELUDE_LINES + 5}:11: error[E0305]`);
  });
});

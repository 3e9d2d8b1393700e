/**
 * What the language reference says the binary does, the binary does: the start-up errors
 * tools.md quotes, the operators of functions.md's 'Expressions', and `luma test`'s output,
 * options, exit statuses and mock turns as testing.md states them.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { codeSpans, page, scratchDir, table } from "./language-page-reading";

const work = scratchDir();

describe("§4 tools.md — the start-up errors it quotes are the binary's", () => {
  const text = page("tools.md");

  test("'Handlers': a tool with no handler stops the run with the quoted E0601 message", () => {
    const quoted = /`(Error: '(\w+)' is not registered in the tool registry\.)` \(E0601\)/.exec(text)!;
    writeFileSync(join(work, "example.luma"), `schema Out { ok: bool }\ntool ${quoted[2]}(to: string) -> Out {}\nprint("ran")\n`);
    expect(runLuma(["check", "example.luma"], { cwd: work }).exitCode).toBe(0);
    const r = runLuma(["example.luma"], { cwd: work });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`${quoted[1]}\n  = code E0601 (luma explain E0601)\n`);
    expect(r.exitCode).toBe(2);
  });

  test("'a tool with needs cannot be cached': reported by luma check and at start-up with the quoted E0604 message", () => {
    const quoted = /`(Cache cannot be used on a tool that uses needs: )x` \(E0604\)/.exec(text)!;
    writeFileSync(join(work, "example.luma"), 'schema Out { ok: bool }\nschema Db { url: string }\ntool text_stats(text: string) -> Out {\n  cache: true\n  needs db: Db\n}\nprint("ran")\n');
    const checked = runLuma(["check", "example.luma"], { cwd: work });
    expect(checked.exitCode).toBe(2);
    expect(checked.stderr).toBe(`Error: ${quoted[1]}text_stats\n  = code E0604 (luma explain E0604)\n`);
    const r = runLuma(["example.luma"], { cwd: work });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`Error: ${quoted[1]}text_stats\n  = code E0604 (luma explain E0604)\n`);
    expect(r.exitCode).toBe(2);
  });
});

describe("§7 functions.md — 'Expressions': what the table says the operators do, the binary does", () => {
  const text = page("functions.md");
  const run = (source: string) => {
    writeFileSync(join(work, "example.luma"), source);
    return runLuma(["example.luma"], { cwd: work });
  };

  test("'`false`, `null`, `0` and `\"\"` are false; everything else (`[]` and `{}` too) is true' — in `not`, `if`, `while` and `assert`", () => {
    const row = table(text, "form", "## Expressions").find(([f]) => f!.includes("`and`"))!;
    const [falsy, truthy] = row[1]!.split("everything else").map(codeSpans);
    expect(falsy).toEqual(["false", "null", "0", '""']);
    const values = [...falsy!, ...truthy!, "1", '"0"', "-1"];
    // `any`, so the checker leaves the condition to the runtime's truthiness.
    const lines = values.map((v, i) => `v${i}: any = ${v}\nif v${i} { print("${i} true", not v${i}) } else { print("${i} false", not v${i}) }`);
    const r = run(lines.join("\n") + "\n");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(values.map((_, i) => (i < falsy!.length ? `${i} false true\n` : `${i} true false\n`)).join(""));
    expect(run('z: any = 0\nwhile z { print("never") }\nassert z\n').exitCode).toBe(1);
  });

  test("'real division: `7 / 2` is `3.5`', 'deep structural equality (key order ignored; `1 == 1.0`)', 'other mixes are `false`'", () => {
    expect(text).toContain("`7 / 2` is `3.5`");
    expect(text).toContain("key order ignored; `1 == 1.0`");
    const r = run('a: any = 1\nb: any = "b"\nprint(7 / 2, 1 == 1.0, { a: 1, b: [1] } == { b: [1], a: 1 }, a < b, b < a, "a" < "b")\n');
    expect(r.stdout).toBe("3.5 true true false false true\n");
  });

  test("'Division or modulo by zero is `RUNTIME_ERROR`'; '`a.b` … `RUNTIME_ERROR` on `null`' with the message the page quotes", () => {
    const quoted = /\(`(Cannot read field 'b' of null) at app\.luma:4:7`\)/.exec(text)![1]!;
    writeFileSync(join(work, "app.luma"), 'try { x = 1 / 0 } catch e { print(e.code) }\ntry { x = 1 % 0 } catch e { print(e.code) }\na: any = null\nprint(a.b)\n');
    const r = runLuma(["app.luma"], { cwd: work });
    expect(r.stdout).toBe("RUNTIME_ERROR\nRUNTIME_ERROR\n");
    expect(r.stderr.split("\n")[0]).toBe(`Error: [RUNTIME_ERROR] ${quoted} at app.luma:4:7`);
    expect(r.exitCode).toBe(1);
  });
});

describe("testing.md — 'Output, options and exit status' and mock turns, through `luma test`", () => {
  const text = page("testing.md");
  const dir = () => mkdtempSync(join(tmpdir(), "luma-docs-test-"));
  const lumaTest = (cwd: string, ...args: string[]) => runLuma(["test", ...args], { cwd });

  test("the exit statuses the page states: 1 failed / did not load / none ran, 2 unreadable path or junit file, 64 usage, else 0", () => {
    expect(text).toMatch(/exit status is 1 when a test failed, a file did not load[\s\S]*no test ran[\s\S]*2 when a named path cannot be read[\s\S]*64 for a command-line usage error/);
    const d = dir();
    writeFileSync(join(d, "ok.test.luma"), 'test "ok" { assert true }\n');
    expect(lumaTest(d).exitCode).toBe(0);
    expect(lumaTest(d, "--filter", "nothing-matches").exitCode).toBe(1);
    expect(lumaTest(d, "missing.test.luma").exitCode).toBe(2);
    expect(lumaTest(d, "--format", "junit", join(d, "no-such-dir", "r.xml")).exitCode).toBe(2);
    expect(lumaTest(d, "--no-such-option").exitCode).toBe(64);
    writeFileSync(join(d, "bad.test.luma"), 'test "x" {\n  assert (\n}\n');
    const notLoading = lumaTest(d);
    expect(notLoading.stdout).toContain("FAIL bad.test.luma › (the file does not load)");
    expect(notLoading.exitCode).toBe(1);
    const empty = dir();
    expect(lumaTest(empty).exitCode).toBe(1);
  });

  test("'A request past the last scripted turn is a `PROVIDER_ERROR`'; 'a turn left unused is not an error'", () => {
    expect(text).toContain("A request past the last scripted turn is a\n`PROVIDER_ERROR`");
    const d = dir();
    writeFileSync(
      join(d, "m.test.luma"),
      [
        "schema A { n: int }",
        'model M { provider: "openai", name: "m" }',
        'agent X { model: M  retries: 1  fn go() -> A { ask "go" -> A } }',
        'test "past the last turn" {',
        '  mock M [{ text: "not json" }]',
        '  code = "none"',
        "  try { X.go() } catch e { code = e.code }",
        '  assert code == "PROVIDER_ERROR"',
        "}",
        'test "unused turns" {',
        "  mock M [{ answer: { n: 1 } }, { answer: { n: 2 } }]",
        "  assert X.go().n == 1",
        "}",
      ].join("\n") + "\n",
    );
    const r = lumaTest(d);
    expect(r.stdout).toContain("2 passed, 0 failed");
    expect(r.exitCode).toBe(0);
  });
});

test("testing.md: the options table lists exactly the options `luma --help` gives `luma test`", () => {
  const shown = table(page("testing.md"), "option", "## Output, options and exit status").map(([o]) => codeSpans(o!)[0]!.split(" ")[0]);
  const usage = runLuma(["--help"]).stdout.split("\n").find((l) => l.trimStart().startsWith("luma test "))!;
  expect(shown.sort()).toEqual([...usage.matchAll(/\[(--[a-z-]+)/g)].map((m) => m[1]).sort());
});

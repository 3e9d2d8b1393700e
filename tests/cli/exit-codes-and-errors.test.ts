/**
 * Spec §15 through the real binary: exit codes 0/1/2/64, diagnostics with file:line:col,
 * the source line and a caret, the *exact* startup messages, colour only on a terminal.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-cli-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const CALC = `schema CalcResult { result: float }
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}
`;

describe("§15 exit codes", () => {
  test("0: success", () => {
    const dir = project({ "app.luma": 'print("ok")\n' });
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "ok\n", stderr: "" });
  });

  test("2: a syntax error prints file:line:col, the source line and a caret — no stack trace", () => {
    const dir = project({ "app.luma": 'schema A {\n  x: int\n  y int\n}\nprint("never")\n' });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^app\.luma:3:\d+: error\[E0101\]: /);
    expect(r.stderr).toContain("  3 |   y int");
    expect(r.stderr).toContain("^");
    expect(r.stderr).not.toContain("    at ");
  });

  test("2: check errors are all collected, not just the first", () => {
    const dir = project({ "app.luma": "schema A {\n  x: int @rnage(1, 2)\n}\nprint(y)\n" });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      [
        "app.luma:2:10: error[E0209]: Unknown annotation '@rnage'.",
        "  2 |   x: int @rnage(1, 2)",
        "    |          ^^^^^^^^^^^^",
        "  hint: did you mean `@range`?",
        "",
        "app.luma:4:7: error[E0233]: Unknown name 'y'.",
        "  4 | print(y)",
        "    |       ^",
        "",
      ].join("\n"),
    );
    expect(runLuma(["check", "app.luma"], { cwd: dir }).exitCode).toBe(2);
  });

  test("luma check on a clean program exits 0 and runs nothing", () => {
    const dir = project({ "app.luma": 'print("side effect")\n' });
    expect(runLuma(["check", "app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "app.luma: ok\n", stderr: "" });
  });

  test("1: an uncaught runtime error prints `Error: [CODE] message` with the location", () => {
    const dir = project({ "app.luma": 'print("before")\nx = 1 / 0\nprint("after")\n' });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("before\n");
    expect(r.stderr).toBe("Error: [RUNTIME_ERROR] Division by zero at app.luma:2:5\n  --> app.luma:2:5\n  2 | x = 1 / 0\n    |     ^^^^^\n");
  });

  test("1: field access on null", () => {
    // Typed `any`: a field read on a value the checker knows is null is rejected before the run (E0302).
    const dir = project({ "app.luma": "user: any = null\nprint(user.name)\n" });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      "Error: [RUNTIME_ERROR] Cannot read field 'name' of null at app.luma:2:7\n  --> app.luma:2:7\n  2 | print(user.name)\n    |       ^^^^^^^^^\n",
    );
  });

  test("64: a usage error", () => {
    expect(runLuma([]).exitCode).toBe(64);
  });
});

describe("§10 and §4 startup errors (exit 2, before the first statement)", () => {
  test("*exact*: Error: 'x' is not registered in the tool registry.", () => {
    const dir = project({ "app.luma": `schema R { ok: bool }\ntool send_mail(to: string) -> R {}\nprint("never")\n` });
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({
      exitCode: 2, stdout: "", stderr: "Error: 'send_mail' is not registered in the tool registry.\n  = code E0601 (luma explain E0601)\n",
    });
  });

  test("*exact*: Tool registry conflict: calculate.", () => {
    const mod = "export const calculate = () => ({ result: 1 });\n";
    const dir = project({ "app.luma": CALC + 'print("never")\n', "a.ts": mod, "b.ts": mod });
    expect(runLuma(["app.luma", "--tool-module", "a.ts", "--tool-module", "b.ts"], { cwd: dir })).toEqual({
      exitCode: 2, stdout: "", stderr: "Error: Tool registry conflict: calculate.\n  = code E0602 (luma explain E0602)\n",
    });
  });

  test("*exact*: Cache cannot be used on a tool that uses needs: x — at start-up, and by luma check (they never disagree)", () => {
    const src = `schema Db { user: string }
schema R { ok: bool }
tool lookup(id: string) -> R {
  needs db: Db
  cache: true
}
print("never")
`;
    const dir = project({ "app.luma": src, "t.ts": "export const lookup = () => ({ ok: true });\n" });
    expect(runLuma(["app.luma", "--tool-module", "t.ts"], { cwd: dir })).toEqual({
      exitCode: 2, stdout: "", stderr: "Error: Cache cannot be used on a tool that uses needs: lookup\n  = code E0604 (luma explain E0604)\n",
    });
    expect(runLuma(["check", "app.luma"], { cwd: dir })).toEqual({
      exitCode: 2, stdout: "", stderr: "Error: Cache cannot be used on a tool that uses needs: lookup\n  = code E0604 (luma explain E0604)\n",
    });
  });

  test("bad config: unknown keys and wrong types name the key", () => {
    const dir = project({
      "app.luma": 'print("never")\n',
      "luma.config.json": JSON.stringify({ tool_modules: [{ path: "./t.ts", verison: "1" }], tool_contexts: 3 }),
    });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("tool_modules[0].verison");
    expect(r.stderr).toContain("tool_contexts");
  });

  test("a missing tool module and a module that throws at load are clear errors", () => {
    const dir = project({ "app.luma": 'print("never")\n', "boom.ts": 'throw new Error("no database URL");\n' });
    const missing = runLuma(["app.luma", "--tool-module", "nope.ts"], { cwd: dir });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("nope.ts");
    const boom = runLuma(["app.luma", "--tool-module", "boom.ts"], { cwd: dir });
    expect(boom.exitCode).toBe(2);
    expect(boom.stderr).toContain("boom.ts");
    expect(boom.stderr).toContain("no database URL");
    expect(boom.stderr).not.toContain("    at ");
  });
});

describe("§3 and §7 runtime tool errors through the CLI", () => {
  test("*exact*: Error: [TOOL_OUTPUT_INVALID] classify.output.kind must identify a tagged union member.", () => {
    const src = `schema Invoice { invoice_number: string }
schema Receipt { reference: string }
schema Document = Invoice | Receipt tagged by kind
tool classify(text: string) -> Document { side_effects: "none" }
d = tool classify({ text: "x" })
`;
    const dir = project({ "app.luma": src, "t.ts": "export const classify = (i) => ({ invoice_number: i.text });\n" });
    expect(runLuma(["app.luma", "--tool-module", "t.ts"], { cwd: dir })).toEqual({
      exitCode: 1,
      stdout: "",
      stderr:
        "Error: [TOOL_OUTPUT_INVALID] classify.output.kind must identify a tagged union member.\n" +
        "  --> app.luma:5:5\n  5 | d = tool classify({ text: \"x\" })\n    |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    });
  });

  test("a handler returning a non-object is TOOL_OUTPUT_INVALID", () => {
    const dir = project({ "app.luma": CALC + 'tool calculate({ a: 1, b: 2, operation: "add" })\n', "t.ts": "export const calculate = () => 42;\n" });
    const r = runLuma(["app.luma", "--tool-module", "t.ts"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toStartWith("Error: [TOOL_OUTPUT_INVALID] calculate.output");
  });
});

describe("§15 colour", () => {
  const dir = project({ "app.luma": "print(y)\n" });
  const onTerminal = (env: string) =>
    Bun.spawnSync(["script", "-qec", `${env} ${ensureBinary()} app.luma`, "/dev/null"], {
      cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", TERM: "xterm" },
    }).stdout.toString();

  test("in colour on a terminal (a real pseudo-terminal via script(1))", () => {
    expect(onTerminal("")).toContain("\x1b[31m");
  });

  test("plain when NO_COLOR is set, even on a terminal", () => {
    const out = onTerminal("NO_COLOR=1");
    expect(out).toContain("app.luma:1:7: error[E0233]: Unknown name 'y'.");
    expect(out).not.toContain("\x1b[");
  });

  test("plain when not a TTY", () => {
    expect(runLuma(["app.luma"], { cwd: dir, env: { NO_COLOR: undefined } }).stderr).not.toContain("\x1b[");
  });
});

describe("startup order: nothing is written by a program that is rejected", () => {
  test("a missing datasource bridge (exit 2) creates no idempotency store files", () => {
    const dir = project({
      "app.luma": 'datasource Warehouse {}\nprint("never")\n',
      "luma.config.json": JSON.stringify({ idempotency_store: { backend: "file", path: ".store.json" } }),
    });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r).toEqual({ exitCode: 2, stdout: "", stderr: "Error: datasource 'Warehouse' has no registered bridge.\n  = code E0603 (luma explain E0603)\n" });
    expect(require("node:fs").readdirSync(dir).sort()).toEqual(["app.luma", "luma.config.json"]);
  });

  test("--trace into a directory that does not exist is a startup error (exit 2), not an internal error", () => {
    const dir = project({ "app.luma": 'print("never")\n' });
    const r = runLuma(["app.luma", "--trace", "no/such/dir/trace.jsonl"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Error: cannot write the trace file ");
    expect(r.stderr).toContain("ENOENT");
  });
});

describe("§1 number literals and checker warnings", () => {
  test("a number literal too large to be finite is a check error (it could not survive JSON)", () => {
    const dir = project({ "app.luma": "x = 1e400\nprint(x > 5)\n" });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("app.luma:1:5: error[E0244]: Number literal is out of range (it must be a finite number).");
  });

  test("a warning is shown with its source line, and the program still runs", () => {
    const dir = project({ "app.luma": 'schema A {\n  x: int @severity("soft")\n}\nprint("ran")\n' });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("ran\n");
    expect(r.stderr).toBe(
      "app.luma:2:10: warning[E0245]: @severity on 'x' has no rule to apply to (add @range, @length, @pattern, @format, @items, @min or @max).\n" +
        '  2 |   x: int @severity("soft")\n' +
        "    |          ^^^^^^^^^^^^^^^^^\n",
    );
  });
});

/**
 * Diagnostics at the command line, through the real `dist/luma` binary: codes in the
 * rendered message (`error[E0204]`, `  = code E0601 (…)` under a startup error),
 * `luma explain CODE`, and `luma check --format json FILE` — one JSON object on stdout,
 * exit 0/2 as the text form, never coloured, even on a terminal or for hostile input.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-diag-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const checkJson = (dir: string, file = "app.luma") => {
  const r = runLuma(["check", "--format", "json", file], { cwd: dir });
  return { ...r, json: JSON.parse(r.stdout) as { diagnostics: Record<string, unknown>[] } };
};

describe("§15 luma explain CODE", () => {
  test("prints the title, the explanation and an example, exit 0", () => {
    const r = runLuma(["explain", "E0204"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toStartWith("E0204: unknown schema\n\n");
    expect(r.stdout).toContain("\nExample:\n    schema Answer { text: string }\n");
  });

  test("codes are case-insensitive; the spec's runtime codes are explained too", () => {
    expect(runLuma(["explain", "e0601"]).stdout).toStartWith("E0601: tool is not registered\n");
    const r = runLuma(["explain", "TOOL_TIMEOUT"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toStartWith("TOOL_TIMEOUT: tool call timed out\n");
  });

  test("the MCP bridge's runtime codes (TOOL_UNAVAILABLE, MCP_ERROR, MCP_TOOL_ERROR) are explained, exit 0", () => {
    for (const [code, title] of [
      ["TOOL_UNAVAILABLE", "a tool's MCP server is down"],
      ["MCP_ERROR", "an MCP server refused the tool call"],
      ["mcp_tool_error", "an MCP tool reported an error"],
    ]) {
      const r = runLuma(["explain", code!]);
      expect({ exit: r.exitCode, head: r.stdout.split("\n")[0], stderr: r.stderr }).toEqual({ exit: 0, head: `${code!.toUpperCase()}: ${title}`, stderr: "" });
      expect(r.stdout).toContain('mcp: "docs"');
    }
  });

  test("an unknown code is a usage error (exit 64) that says did you mean", () => {
    expect(runLuma(["explain", "E204"])).toEqual({
      exitCode: 64,
      stdout: "",
      stderr: "luma: unknown diagnostic code 'E204' (did you mean `E0204`?)\nRun 'luma --help' for usage.\n",
    });
    expect(runLuma(["explain", "TOOL_TIMOUT"]).stderr).toStartWith("luma: unknown diagnostic code 'TOOL_TIMOUT' (did you mean `TOOL_TIMEOUT`?)");
    // A code number no entry has still names the nearest one (docs/cli.md).
    // (The nearest is in the highest range: E1xxx since issues #27 and #28 — E14xx, `luma eval`, today.)
    expect(runLuma(["explain", "E9999"]).stderr).toMatch(/^luma: unknown diagnostic code 'E9999' \(did you mean `E1\d{3}`\?\)/);
    expect(runLuma(["explain", "E0150"]).stderr).toMatch(/^luma: unknown diagnostic code 'E0150' \(did you mean `E01\d\d`\?\)/);
    expect(runLuma(["explain", "nothing-like-it"]).stderr).toStartWith("luma: unknown diagnostic code 'nothing-like-it'\n");
  });

  test("without a CODE, or with two: usage error (exit 64)", () => {
    expect(runLuma(["explain"]).exitCode).toBe(64);
    expect(runLuma(["explain", "E0201", "E0202"]).exitCode).toBe(64);
  });

  test("--help lists explain and --format", () => {
    const help = runLuma(["--help"]).stdout;
    expect(help).toContain("luma explain CODE");
    expect(help).toContain("--format text|json");
  });
});

describe("§15 codes in the rendered message", () => {
  test("a check error carries its code in the label and its hint under the caret", () => {
    const dir = project({ "app.luma": 'greeting = "hi"\nprint(greting)\n' });
    const r = runLuma(["check", "app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "app.luma:2:7: error[E0233]: Unknown name 'greting'.\n  2 | print(greting)\n    |       ^^^^^^^\n  hint: did you mean `greeting`?\n",
    );
  });

  test("a startup error keeps its exact line; its code is the line under it", () => {
    const dir = project({ "app.luma": 'schema R { ok: bool }\ntool send_mail(to: string) -> R {}\nprint("never")\n' });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split("\n")).toEqual([
      "Error: 'send_mail' is not registered in the tool registry.",
      "  = code E0601 (luma explain E0601)",
      "",
    ]);
  });

  test("a luma.config.json key typo: the closest key, and the config code", () => {
    const dir = project({ "app.luma": 'print("never")\n', "luma.config.json": '{ "tool_modles": [] }' });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: "Error: luma.config.json: unknown key 'tool_modles' (did you mean 'tool_modules'?)\n  = code E0401 (luma explain E0401)\n",
    });
  });

  test("a runtime error is unchanged: its spec code is already on its line", () => {
    const dir = project({ "app.luma": "x = 1 / 0\n" });
    expect(runLuma(["app.luma"], { cwd: dir }).stderr).toBe(
      "Error: [RUNTIME_ERROR] Division by zero at app.luma:1:5\n  --> app.luma:1:5\n  1 | x = 1 / 0\n    |     ^^^^^\n",
    );
  });
});

describe("§15 luma check --format json FILE", () => {
  test("a clean program: {\"diagnostics\":[]} on stdout, exit 0, nothing on stderr", () => {
    const dir = project({ "app.luma": 'print("side effect")\n' });
    expect(runLuma(["check", "--format", "json", "app.luma"], { cwd: dir })).toEqual({
      exitCode: 0,
      stdout: '{"diagnostics":[]}\n',
      stderr: "",
    });
  });

  test("errors: every field, 1-based lines and columns, the end exclusive; exit 2", () => {
    const dir = project({ "app.luma": 'schema A {\n  x: int @rnage(1, 2)\n}\nprint(y)\n' });
    const r = checkJson(dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("");
    expect(r.json).toEqual({
      diagnostics: [
        {
          file: "app.luma", line: 2, column: 10, end_line: 2, end_column: 22, severity: "error", code: "E0209",
          message: "Unknown annotation '@rnage'.", hints: ["did you mean `@range`?"],
        },
        {
          file: "app.luma", line: 4, column: 7, end_line: 4, end_column: 8, severity: "error", code: "E0233",
          message: "Unknown name 'y'.", hints: [],
        },
      ],
    });
    // One object, one line: a consumer reads stdout whole.
    expect(r.stdout.split("\n")).toEqual([r.stdout.trimEnd(), ""]);
  });

  test("warnings are in the list, with their severity, and the exit code stays 0", () => {
    const dir = project({ "app.luma": 'schema A {\n  x: int @severity("soft")\n}\n' });
    const r = checkJson(dir);
    expect(r.exitCode).toBe(0);
    expect(r.json.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([["warning", "E0245", 2]]);
  });

  test("flag after FILE and --format=json spelling work the same", () => {
    const dir = project({ "app.luma": "print(y)\n" });
    const a = runLuma(["check", "app.luma", "--format", "json"], { cwd: dir });
    const b = runLuma(["check", "--format=json", "app.luma"], { cwd: dir });
    expect(a).toEqual(b);
    expect(a.exitCode).toBe(2);
  });

  test("a parse error is JSON too, exit 2", () => {
    const dir = project({ "app.luma": "x = (\n" });
    const r = checkJson(dir);
    expect(r.exitCode).toBe(2);
    expect(r.json.diagnostics).toHaveLength(1);
    expect(r.json.diagnostics[0]).toMatchObject({ file: "app.luma", severity: "error" });
    expect(typeof r.json.diagnostics[0].line).toBe("number");
  });

  test("a file that cannot be read: one diagnostic with null positions and its code, exit 2", () => {
    const dir = project({});
    const r = checkJson(dir, "missing.luma");
    expect(r.exitCode).toBe(2);
    expect(r.json).toEqual({
      diagnostics: [
        {
          file: "missing.luma", line: null, column: null, end_line: null, end_column: null, severity: "error", code: "E0610",
          message: "cannot read missing.luma: no such file", hints: [],
        },
      ],
    });
  });

  test("hostile text stays valid JSON: quotes, backslashes, control characters, CRLF and non-ASCII names", () => {
    const dir = project({ "app.luma": 'x = "a\\"b\\\\c"\r\nprint(ünïcødé_\u0007, x)\r\nprint(`)\r\n' });
    const r = runLuma(["check", "--format", "json", "app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stdout).not.toContain("\r");
  });

  test("many errors: all of them, in source order", () => {
    const dir = project({ "app.luma": Array.from({ length: 300 }, (_, i) => `print(v${i})`).join("\n") + "\n" });
    const r = checkJson(dir);
    expect(r.exitCode).toBe(2);
    expect(r.json.diagnostics.map((d) => d.line)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  test("never coloured, even on a terminal (a real pseudo-terminal via script(1))", () => {
    const dir = project({ "app.luma": "print(y)\n" });
    const out = Bun.spawnSync(["script", "-qec", `${ensureBinary()} check --format json app.luma`, "/dev/null"], {
      cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", TERM: "xterm", FORCE_COLOR: "1" },
    }).stdout.toString();
    expect(out).not.toContain("\x1b[");
    expect(JSON.parse(out.trim()).diagnostics[0].code).toBe("E0233");
  });

  test("an unknown format is a usage error (exit 64), not JSON", () => {
    const r = runLuma(["check", "--format", "xml", "app.luma"]);
    expect(r.exitCode).toBe(64);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("luma: --format must be text or json (got 'xml')");
  });

  test("stdout closed early (a consumer that reads nothing) does not crash into a stack trace", () => {
    const dir = project({ "app.luma": "print(y)\n" });
    const r = Bun.spawnSync(["sh", "-c", `${ensureBinary()} check --format json app.luma | true`], { cwd: dir, stderr: "pipe" });
    expect(r.stderr.toString()).not.toContain("    at ");
  });
});

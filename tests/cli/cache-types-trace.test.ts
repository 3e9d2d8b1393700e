/**
 * Through the binary: the checked-program cache, --generate-tool-types and --trace.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";

const tmp = () => mkdtempSync(join(tmpdir(), "luma-cache-"));

describe("checked-program cache ($XDG_CACHE_HOME/luma)", () => {
  const setup = () => {
    const dir = tmp();
    writeFileSync(join(dir, "app.luma"), 'print("from source")\n');
    const env = { XDG_CACHE_HOME: join(dir, "cache"), LUMA_NO_CACHE: undefined };
    return { dir, env, cacheDir: join(dir, "cache", "luma") };
  };

  test("a run writes one entry; an unchanged script is then read from it, not parsed again", () => {
    const { dir, env, cacheDir } = setup();
    expect(runLuma(["app.luma"], { cwd: dir, env }).stdout).toBe("from source\n");
    const entries = readdirSync(cacheDir);
    expect(entries).toHaveLength(1);
    // Tamper with the cached AST: if the next run prints the tampered text, it came from the cache.
    const path = join(cacheDir, entries[0]);
    writeFileSync(path, readFileSync(path, "utf8").replace("from source", "from cache"));
    expect(runLuma(["app.luma"], { cwd: dir, env }).stdout).toBe("from cache\n");
    // LUMA_NO_CACHE=1 bypasses it.
    expect(runLuma(["app.luma"], { cwd: dir, env: { ...env, LUMA_NO_CACHE: "1" } }).stdout).toBe("from source\n");
  });

  test("a changed script misses the cache", () => {
    const { dir, env, cacheDir } = setup();
    runLuma(["app.luma"], { cwd: dir, env });
    writeFileSync(join(dir, "app.luma"), 'print("edited")\n');
    expect(runLuma(["app.luma"], { cwd: dir, env }).stdout).toBe("edited\n");
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  test("a corrupt entry or one from another version is ignored and rewritten", () => {
    const { dir, env, cacheDir } = setup();
    runLuma(["app.luma"], { cwd: dir, env });
    const path = join(cacheDir, readdirSync(cacheDir)[0]);
    for (const bad of ['{"format":1,"version":"0.0.0-other","program":{"kind":"Program"}}', "{ not json", ""]) {
      writeFileSync(path, bad);
      expect(runLuma(["app.luma"], { cwd: dir, env })).toEqual({ exitCode: 0, stdout: "from source\n", stderr: "" });
      expect(JSON.parse(readFileSync(path, "utf8")).program.kind).toBe("Program");
    }
  });

  test("a program read from the cache is the program parsed: a constant whose keys look like spans keeps its value", () => {
    // An annotation's constant is data: `span` keys with `[start, end]` or span-shaped
    // objects inside it must come back from the cache exactly as written.
    const { dir, env, cacheDir } = setup();
    writeFileSync(
      join(dir, "app.luma"),
      [
        "schema Box {",
        "  label: string",
        '  meta?: any @default({ "span": [1, 2], "nameSpan": { "file": "app.luma", "start": 3, "end": 4 } })',
        "}",
        "fn show(b: Box) -> any {",
        "  b.meta",
        "}",
        'print(show({ label: "x" }))',
        "",
      ].join("\n"),
    );
    const expected = '{"span":[1,2],"nameSpan":{"file":"app.luma","start":3,"end":4}}\n';
    expect(runLuma(["app.luma"], { cwd: dir, env }).stdout).toBe(expected);
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(runLuma(["app.luma"], { cwd: dir, env })).toEqual({ exitCode: 0, stdout: expected, stderr: "" });
  });

  test("`luma check` of a cached script answers from the entry's presence: it does not read the entry", () => {
    // Only a clean program is cached, under a key naming its exact source: nothing to re-check.
    const { dir, env, cacheDir } = setup();
    expect(runLuma(["check", "app.luma"], { cwd: dir, env })).toEqual({ exitCode: 0, stdout: "app.luma: ok\n", stderr: "" });
    const path = join(cacheDir, readdirSync(cacheDir)[0]);
    writeFileSync(path, "{ not json");
    expect(runLuma(["check", "app.luma"], { cwd: dir, env })).toEqual({ exitCode: 0, stdout: "app.luma: ok\n", stderr: "" });
    expect(readFileSync(path, "utf8")).toBe("{ not json");
    // A run needs the program: it ignores the unreadable entry and writes it again.
    expect(runLuma(["app.luma"], { cwd: dir, env }).stdout).toBe("from source\n");
    expect(JSON.parse(readFileSync(path, "utf8")).program.kind).toBe("Program");
    // An empty entry (a full disk) counts as none: the check runs and writes the entry again.
    writeFileSync(path, "");
    expect(runLuma(["check", "app.luma"], { cwd: dir, env }).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(path, "utf8")).program.kind).toBe("Program");
    // An edited script is another key: checked again, its errors reported.
    writeFileSync(join(dir, "app.luma"), "print(nope)\n");
    expect(runLuma(["check", "app.luma"], { cwd: dir, env }).exitCode).toBe(2);
  });

  test("a program with errors is never cached", () => {
    const { dir, env, cacheDir } = setup();
    writeFileSync(join(dir, "app.luma"), "print(nope)\n");
    expect(runLuma(["app.luma"], { cwd: dir, env }).exitCode).toBe(2);
    expect(existsSync(cacheDir) ? readdirSync(cacheDir) : []).toHaveLength(0);
  });
});

describe("§13 --generate-tool-types", () => {
  test("writes the seed's file for the calculate contract and does not run the program", () => {
    const dir = tmp();
    writeFileSync(join(dir, "app.luma"), `schema CalcResult {
  result: float
}
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {
  side_effects: "none"
}
print("ran")
`);
    const r = runLuma(["app.luma", "--generate-tool-types", "tools.generated.d.ts"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain("ran");
    const golden = readFileSync(join(REPO, "tests/typegen/fixtures/calculate.d.ts"), "utf8");
    expect(readFileSync(join(dir, "tools.generated.d.ts"), "utf8")).toBe(golden);
  });
});

describe("§14 --trace", () => {
  test("one JSON Lines event per tool call with the required fields", () => {
    const dir = tmp();
    const r = runLuma([join(REPO, "examples/018_direct_tool.luma"), "--trace", "trace.jsonl"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const events = readFileSync(join(dir, "trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(events).toHaveLength(3);
    for (const e of events) {
      for (const field of ["tool", "agent", "mode", "attempts", "duration_ms", "outcome", "code", "cache_hit", "single_flight", "idempotent_replay"]) {
        expect(e).toHaveProperty(field);
      }
    }
    expect(events.map((e) => [e.tool, e.mode, e.outcome, e.code])).toEqual([
      ["calculate", "direct", "ok", null],
      ["calculate", "direct", "ok", null],
      ["calculate", "direct", "error", "TOOL_INPUT_INVALID"],
    ]);
  });
});

describe("checked-program cache stays bounded", () => {
  test("a write keeps the newest 256 entries and drops entries older than 30 days", async () => {
    const { utimesSync } = await import("node:fs");
    const dir = tmp();
    const cacheDir = join(dir, "cache", "luma");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(cacheDir, { recursive: true });
    const old = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    writeFileSync(join(cacheDir, "stale.json"), "{}");
    utimesSync(join(cacheDir, "stale.json"), old, old);
    for (let i = 0; i < 300; i++) writeFileSync(join(cacheDir, `filler-${i}.json`), "{}");
    writeFileSync(join(dir, "app.luma"), 'print("hi")\n');
    const r = runLuma(["app.luma"], { cwd: dir, env: { XDG_CACHE_HOME: join(dir, "cache"), LUMA_NO_CACHE: undefined } });
    expect(r.stdout).toBe("hi\n");
    const left = readdirSync(cacheDir);
    expect(left).toHaveLength(256);
    expect(left).not.toContain("stale.json");
  });
});

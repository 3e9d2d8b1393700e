/**
 * Hardening round 3, item 12, through the real `dist/luma`: a huge input with an error
 * gets its one located diagnostic in memory bounded by the input — a 10 MB block comment
 * left open took 6.26 GB (about 620 bytes per byte), a 10 MB open string 1.37 GB — and a
 * 20,000-term `and`/`or` chain checks, runs and formats (it was an internal stack overflow).
 *
 * The memory bound is loose on purpose (1 GiB for 10 MB, where about 0.1 GiB is used now):
 * peak RSS does not depend on the machine's load, and the old figures are many times over
 * it. The figures themselves are `bench/parser-memory.ts`'s. No timing is asserted.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { generateProgramOfSize } from "../../bench/generate-program";
import { ensureBinary, runLuma } from "../support/luma-binary";
import { programDir as program } from "./parse-helpers";

const MIB = 1024 * 1024;
const HUGE = 10 * MIB;
const MEMORY_BOUND = 1024 * MIB;
/** Per test: large inputs, on a CI machine that may be loaded. */
const LIMIT_MS = 120_000;

/**
 * Run by a fresh `bun` between the test and `luma`: the kernel's maxRSS of a child, as Bun
 * reports it, was seen to carry the largest of the test process's earlier children (a
 * language server of another test file); a process with one child has only that one.
 */
const MEASURE = `
const r = Bun.spawnSync(JSON.parse(process.env.LUMA_MEASURE_CMD), { stdout: "pipe", stderr: "pipe" });
console.log(JSON.stringify({ exitCode: r.exitCode, stderr: r.stderr.toString(), peakRss: r.resourceUsage?.maxRSS }));
`;

/** `luma check app.luma` in `dir`, with its peak RSS (the kernel's maxRSS for the child). */
function checkWithPeak(dir: string): { exitCode: number; stderr: string; peakRss: number } {
  const r = Bun.spawnSync([process.execPath, "-e", MEASURE], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LUMA_NO_CACHE: "1",
      NO_COLOR: "1",
      LUMA_MEASURE_CMD: JSON.stringify([ensureBinary(), "check", "app.luma"]),
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = JSON.parse(r.stdout.toString()) as { exitCode: number; stderr: string; peakRss?: number };
  return { ...out, peakRss: out.peakRss ?? Number.POSITIVE_INFINITY };
}

/** A generated valid program of about `bytes` without `"`: text a string left open swallows. */
const unquoted = (bytes: number) => generateProgramOfSize(bytes).replaceAll('"', "'");

describe("§1 A huge input with an error: its diagnostic, in memory bounded by the input (dist/luma check)", () => {
  const cases: [string, () => string, string][] = [
    ["a /* opening a 10 MB program", () => `/*\n${generateProgramOfSize(HUGE)}`, "app.luma:1:1: error[E0103]: Unterminated block comment\n"],
    ["a string opening 10 MB of code", () => `x = "\n${unquoted(HUGE)}`, "app.luma:1:5: error[E0102]: Unterminated string\n"],
    ["an interpolation { opening 10 MB of code", () => `x = "{\n${unquoted(HUGE).replaceAll("}", ")")}`, "app.luma:1:5: error[E0102]: Unterminated string\n"],
    [
      "a lone { in a 10 MB string",
      () => `x = "{ a + ${"b + ".repeat(HUGE / 4)}"\nprint(x)\n`,
      'app.luma:1:6: error[E0107]: Unclosed "{" in string interpolation (write \\{ for a literal brace)\n',
    ],
    ["10 MB of ( past the nesting limit", () => `x = ${"(".repeat(HUGE)}`, "app.luma:1:105: error[E0106]: Nesting deeper than 100 levels\n"],
  ];
  for (const [name, source, diagnostic] of cases) {
    test(`${name}: exit 2 and the diagnostic at its place, peak RSS under 1 GiB, no internal error`, () => {
      const r = checkWithPeak(program(source()));
      expect(r.stderr).not.toMatch(/internal|stack/i);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toStartWith(diagnostic);
      expect(r.peakRss).toBeLessThan(MEMORY_BOUND);
    }, LIMIT_MS);
  }

  test("a /* left open after a 2 MB program, and a lone { among other strings: the same diagnostics as the grammar's", () => {
    const valid = generateProgramOfSize(2 * MIB);
    const lines = valid.split("\n").length;
    const open = checkWithPeak(program(`${valid}\n/* never closed\n`));
    expect(open.exitCode).toBe(2);
    expect(open.stderr).toStartWith(`app.luma:${lines + 1}:1: error[E0103]: Unterminated block comment\n`);
    // Lone braces, one in a string inside an interpolation: each reported, in source order.
    const braces = runLuma(["check", "app.luma"], { cwd: program('a = 1\nx = "ok {a}"\ny = "{ {a} {"\nz = "{f("{")}"\n') });
    expect(braces.exitCode).toBe(2);
    const at = [...braces.stderr.matchAll(/^app\.luma:(\d+:\d+): error\[E0107\]/gm)].map((m) => m[1]);
    expect(at).toEqual(["3:6", "3:12", "4:10"]);
  }, LIMIT_MS);
});

describe("§2 A 20,000-term `and`/`or` chain checks, runs and formats (was an internal stack overflow)", () => {
  const TERMS = 20_000;

  test("`a and a and …`, `b or b or …`: luma check ok, and the run prints the right value", () => {
    const source =
      `a = true\nb = false\nx = a${" and a".repeat(TERMS - 1)}\ny = b${" or b".repeat(TERMS - 2)} or a\n` +
      `z = a${" and b".repeat(TERMS - 1)}\nprint(x)\nprint(y)\nprint(z)\n`;
    const dir = program(source);
    const check = runLuma(["check", "app.luma"], { cwd: dir });
    expect(check.stderr).not.toMatch(/internal|stack/i);
    expect(check).toMatchObject({ exitCode: 0, stdout: "app.luma: ok\n" });
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "true\ntrue\nfalse\n", stderr: "" });
  }, LIMIT_MS);

  const PERSON = 'schema Person {\n  name: string\n  email?: string\n}\n';

  test("a chain that narrows from its first term to its last, in an `if`: checked, run, formatted", () => {
    // `len(p.email)` needs `p.email` without null: known only through the first term.
    const source =
      `${PERSON}p: Person = { name: "a", email: "e@x" }\n` +
      `if p.email != null${' and p.name == "a"'.repeat(TERMS - 2)} and len(p.email) > 0 {\n  print(len(p.email) + 1)\n}\n` +
      `if p.email == null${' or p.name == "b"'.repeat(TERMS - 2)} or len(p.email) < 0 {\n  print("none")\n} else {\n  print(len(p.email) * 2)\n}\n`;
    const dir = program(source);
    const check = runLuma(["check", "app.luma"], { cwd: dir });
    expect(check.stderr).not.toMatch(/internal|stack/i);
    expect(check).toMatchObject({ exitCode: 0, stdout: "app.luma: ok\n" });
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "4\n6\n", stderr: "" });
    const fmt = runLuma(["fmt", "--check", join(dir, "app.luma")]);
    expect(fmt.stderr).not.toMatch(/internal|stack/i);
    expect(fmt.exitCode).toBe(0);
  }, LIMIT_MS);

  test("where the chain's narrowing says null, the checker's error is at the last term, not a crash", () => {
    // Past `p.email != null or …`, the right side runs only where `p.email` is null.
    const last = ' or len(p.email) > 0\nprint(x)\n';
    const head = `${PERSON}p: Person = { name: "a" }\nx = p.email != null${' or p.name == "b"'.repeat(TERMS - 2)}`;
    const r = runLuma(["check", "app.luma"], { cwd: program(head + last) });
    expect(r.stderr).not.toMatch(/internal|stack/i);
    expect(r.exitCode).toBe(2);
    const column = head.length - head.lastIndexOf("\n") + " or len(".length;
    expect(r.stderr).toStartWith(`app.luma:6:${column}: error[E0315]: Builtin 'len' expects a string, an array or an object, not 'null'.\n`);
  }, LIMIT_MS);
});

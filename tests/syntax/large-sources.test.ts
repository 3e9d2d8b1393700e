/**
 * Large sources (issue #12): a program is matched in pieces cut at top-level declarations,
 * so Ohm's memo table never spans a whole large file. Pinned here: a 1 MB program checks
 * through `dist/luma` and leaves a cache entry of a few times its size; cutting at every
 * declaration gives the AST of the uncut parse for every program in the repository; and a
 * syntax error anywhere, at a piece's end included, is the one the uncut parse reports.
 * (Time and memory belong to `bun run bench`: bench/large-sources.ts.)
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";
import { generateProgramOfSize as programOf } from "../../bench/generate-program";
import { parse } from "../../src/syntax/parse";
import { REPO, runLuma } from "../support/luma-binary";
import { programDir } from "./parse-helpers";

const WHOLE = { chunkChars: Number.POSITIVE_INFINITY };
const EVERY_DECLARATION = { chunkChars: 1 };

describe("§1 A large source is parsed in pieces, each exactly as inside the whole", () => {
  test("a 1 MB program checks with dist/luma, and its cache entry is at most 3× the source", () => {
    const source = programOf(1024 * 1024);
    expect(source.length).toBeGreaterThanOrEqual(1024 * 1024);
    const dir = programDir(source);
    const env = { LUMA_NO_CACHE: undefined, XDG_CACHE_HOME: join(dir, "cache") };
    expect(runLuma(["check", "app.luma"], { cwd: dir, env })).toEqual({ exitCode: 0, stdout: "app.luma: ok\n", stderr: "" });
    const entries = readdirSync(join(dir, "cache", "luma"));
    expect(entries).toHaveLength(1);
    expect(statSync(join(dir, "cache", "luma", entries[0])).size).toBeLessThanOrEqual(3 * source.length);
    // The entry is read back: the second check comes from the cache with the same answer.
    expect(runLuma(["check", "app.luma"], { cwd: dir, env })).toEqual({ exitCode: 0, stdout: "app.luma: ok\n", stderr: "" });
  }, 300_000);

  test("cut at every declaration, each example and test program parses to the AST of the uncut parse", async () => {
    let compared = 0;
    for (const root of ["examples", "tests"]) {
      for await (const file of new Glob("**/*.luma").scan(join(REPO, root))) {
        const source = readFileSync(join(REPO, root, file), "utf8");
        expect(parse(source, file, EVERY_DECLARATION)).toEqual(parse(source, file, WHOLE));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });

  test.each([
    ["an operator at a piece's end, before `tool`", "x = 1 +\ntool t(a: int) -> R {\n}\n"],
    ["`using` at a piece's end, its `tool` on the next line", 'r = ask M "q" -> string using\ntool t\nschema S {\n  a: int\n}\n'],
    ["an error inside a later piece", "schema A {\n  a: int\n}\nschema B {\n  b: int int\n}\nschema C {\n}\n"],
    ["a bracket never closed", "schema A {\n  a: int\n}\nx = f(1,\nschema B {\n}\n"],
    ["a string never closed", 'schema A {\n}\nx = "abc\nschema B {\n}\n'],
  ])("a syntax error is the uncut parse's: %s", (_name, source) => {
    const cut = parse(source, "app.luma", EVERY_DECLARATION);
    expect(cut.program).toBeUndefined();
    expect(cut).toEqual(parse(source, "app.luma", WHOLE));
  });

  test("a syntax error near the end of a 200 KB program is located by dist/luma at its line and column", () => {
    const source = `${programOf(200 * 1024)}schema Broken {\n  a: int int\n}\n`;
    // `a: int int` reads a second field `int`, so the `}` after it is where a `:` was due.
    const line = source.split("\n").length - 1;
    const r = runLuma(["check", "app.luma"], { cwd: programDir(source) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith(`app.luma:${line}:1: error[E0101]: Expected ":" or "?"\n`);
  }, 120_000);
});

/**
 * The editor's piecewise parse (src/lsp/recovering-parse.ts) must mean what the whole-file
 * parse means: over every example and fixture that parses, the program is the same AST,
 * spans included — also after an edit, when cached pieces are re-used at new offsets.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse } from "../../src/syntax/parse";
import { recoveringParse, type PieceCache } from "../../src/lsp/recovering-parse";
import { REPO } from "../support/luma-binary";

/** Per test: these spawn the binary and parse large inputs, on a CI machine that may be loaded. */
const LIMIT_MS = 60_000;

function lumaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? lumaFiles(p) : name.endsWith(".luma") ? [p] : [];
  }, LIMIT_MS);
}

const FILES = [...lumaFiles(join(REPO, "examples")), ...lumaFiles(join(REPO, "tests"))];

describe("piecewise parse = whole-file parse", () => {
  test("every example and fixture that parses gives the same program, piece by piece", () => {
    let compared = 0;
    for (const file of FILES) {
      const source = readFileSync(file, "utf8");
      const whole = parse(source, file);
      if (!whole.program) continue;
      const pieces = recoveringParse(source, file);
      expect({ file, errors: pieces.syntaxErrors }).toEqual({ file, errors: [] });
      expect({ file, program: pieces.program }).toEqual({ file, program: whole.program });
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  }, LIMIT_MS);

  test("after an edit that moves every later piece, cached pieces come back at their new offsets", () => {
    const cache: PieceCache = new Map();
    for (const file of FILES.slice(0, 40)) {
      const source = readFileSync(file, "utf8");
      if (!parse(source, file).program) continue;
      recoveringParse(source, file, cache);
      const edited = `x_inserted = 1\n${source}`;
      const whole = parse(edited, file);
      if (!whole.program) continue;
      expect({ file, program: recoveringParse(edited, file, cache).program }).toEqual({ file, program: whole.program });
    }
  }, LIMIT_MS);

  test("a syntax error drops only its own item: the items after it still parse", () => {
    const source = "schema A {\n  name: string\n\nfn f(x: int) -> int {\n  return x\n}\ny = f(1)\n";
    const r = recoveringParse(source, "t.luma");
    expect(r.syntaxErrors.length).toBe(1);
    expect(r.program.decls.map((d) => d.name)).toEqual(["f"]);
    expect(r.program.body.length).toBe(1);
  }, LIMIT_MS);
});

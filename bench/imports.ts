/**
 * Issue #28 §1 figure: checking a program of 50 files × ~200 lines joined by `import` —
 * cold, and after editing one file (the editor path). Measured:
 *  - `dist/luma check main.luma` with no cache (every file read, parsed, linked, checked);
 *  - the same after an edit of one imported file, with the checked-program cache on (the
 *    key covers every file, so the edit is a miss and the whole program is checked again);
 *  - a cached check of the unchanged program (the cache's hit: the key alone);
 *  - in process, what `luma lsp` does per version: `analyze()` of the main document with its
 *    50 imported files, cold, then after an unsaved edit of one of them.
 * Run alone: `bun run bench:imports` (it is not part of `bun run bench`).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyze } from "../src/lsp/analyze-document";
import { fmt, median, timeCommand } from "./measure";

const FILES = 50;
const RUNS = 5;
const BIN = join(import.meta.dir, "..", "dist", "luma");

/** File i: 10 schemas and 15 fns (~200 lines), importing a schema and a fn of file i-1. */
function fileText(i: number): string {
  const lines: string[] = [];
  if (i > 0) lines.push(`import { Rec${i - 1}_0, f${i - 1}_0 } from "./m${i - 1}.luma"`);
  for (let k = 0; k < 10; k++) lines.push(`schema Rec${i}_${k} {`, "  id: string", "  n: int", "  score: float", "}");
  for (let k = 0; k < 15; k++) {
    const prev = i > 0 && k === 0 ? `f${i - 1}_0(x) + ` : "";
    lines.push(
      `fn f${i}_${k}(x: int) -> int {`, "  total = 0", "  for j in [1, 2, 3] {", "    total = total + j * x", "  }",
      `  r: Rec${i}_0 = { id: "a", n: total, score: 1.5 }`, "  if r.n > 10 {", `    return ${prev}r.n`, "  }", "  return total", "}",
    );
  }
  return lines.join("\n") + "\n";
}

export function benchImports(): void {
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-imports-"));
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `m${i}.luma`), fileText(i));
  const main = join(dir, "main.luma");
  writeFileSync(main, `import { f${FILES - 1}_0 } from "./m${FILES - 1}.luma"\nprint(f${FILES - 1}_0(2))\n`);
  const lines = Array.from({ length: FILES }, (_, i) => fileText(i).split("\n").length - 1).reduce((a, b) => a + b, 0);
  console.log(`imports: ${FILES} files, ${lines} lines`);

  const cold = timeCommand([BIN, "check", main], RUNS, { ...process.env, LUMA_NO_CACHE: "1" });
  const cache = join(dir, "cache");
  mkdirSync(cache);
  const env = { ...process.env, LUMA_NO_CACHE: undefined, XDG_CACHE_HOME: cache };
  const edited = join(dir, "m25.luma");
  const editTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    writeFileSync(edited, fileText(25).replace("total = 0", `total = ${run}`));
    // One run each, no warm-up: a warm-up would fill the cache and time its hit instead.
    const t0 = performance.now();
    const r = Bun.spawnSync([BIN, "check", main], { env, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`luma check failed: ${r.stderr.toString()}`);
    editTimes.push(performance.now() - t0);
  }
  const hit = timeCommand([BIN, "check", main], RUNS, env);
  console.log(`  luma check, cold (no cache):               ${fmt(cold)} ms`);
  console.log(`  luma check, after editing one file:        ${fmt(median(editTimes))} ms`);
  console.log(`  luma check, unchanged (cache hit):         ${fmt(hit)} ms`);

  const overrides = new Map<string, string>();
  const readFile = (f: string) => overrides.get(f) ?? readFileSync(f, "utf8");
  const uri = `file://${main}`;
  const mainText = readFileSync(main, "utf8");
  let t = performance.now();
  analyze(uri, 1, mainText, new Map(), undefined, readFile);
  const lspCold = performance.now() - t;
  const lspEdit: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    overrides.set(edited, fileText(25).replace("total = 0", `total = ${run + 10}`));
    t = performance.now();
    analyze(uri, run + 2, mainText, new Map(), undefined, readFile);
    lspEdit.push(performance.now() - t);
  }
  console.log(`  luma lsp analyze of main, cold:            ${fmt(lspCold)} ms`);
  console.log(`  luma lsp analyze of main, one file edited: ${fmt(median(lspEdit))} ms`);
}

if (import.meta.main) benchImports();

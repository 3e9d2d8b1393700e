/**
 * Hardening round 3, item 12 figures: the parser's memory per input byte on its worst
 * families of input — a string, a block comment or an interpolation left open, a lone `{`
 * in a long string, brackets nested far past the limit, long `and`/`or` and `+` chains, a
 * huge valid program and an error at the end of one. Each is `luma check` in a child
 * process (no cache), its peak RSS as the kernel reports it (`maxRSS`, VmHWM), less the
 * peak of checking a one-line program (the runtime's own), divided by the input's bytes.
 * The goal for the error paths is 20 B/byte or less, in time linear in the input.
 * `LUMA_BENCH_PARSER_MIB` sets the size (default 4 MiB; the issue measured 10), and
 * `LUMA_BENCH_BINARY` another `luma` to measure (an older build, for a before/after).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateProgramOfSize } from "./generate-program";
import { fmt } from "./measure";

const MIB = 1024 * 1024;

/** The families, each a source of about `bytes` bytes (programs without `"` or `}` where the text must not close). */
function families(bytes: number): [string, string][] {
  const program = generateProgramOfSize(bytes);
  const unquoted = program.replaceAll('"', "'");
  const terms = (term: string) => Math.floor(bytes / term.length);
  return [
    ["unterminated /* at the top", `/*\n${program}`],
    ["unterminated string", `x = "\n${unquoted}`],
    ["unterminated { interpolation", `x = "{\n${unquoted.replaceAll("}", ")")}`],
    ["lone { in a long string", `x = "{ a + ${"b + ".repeat(terms("b + "))}"\n`],
    ["nested ( past the limit", `x = ${"(".repeat(bytes)}`],
    ["nested [ { past the limit", `x = ${"[{a: ".repeat(terms("[{a: "))}`],
    ["and/or chain (valid)", `a = true\nx = a${" and a or a".repeat(terms(" and a or a"))}\nprint(x)\n`],
    ["+ chain (valid)", `a = 1\nx = a${" + a".repeat(terms(" + a"))}\nprint(x)\n`],
    ["valid program", program],
    ["/* left open after a valid program", `${program}\n/*\n`],
  ];
}

interface Peak {
  ms: number;
  rssBytes: number;
  exitCode: number;
  firstLine: string;
}

function check(luma: string, file: string): Peak {
  const t0 = performance.now();
  const r = Bun.spawnSync([luma, "check", file], { env: { ...process.env, LUMA_NO_CACHE: "1" }, stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  const out = `${r.stdout.toString()}${r.stderr.toString()}`;
  return { ms, rssBytes: r.resourceUsage?.maxRSS ?? 0, exitCode: r.exitCode ?? -1, firstLine: out.split("\n")[0].replace(file, "") };
}

export async function benchParserMemory(): Promise<void> {
  const luma = resolve(process.env.LUMA_BENCH_BINARY ?? "dist/luma");
  if (!existsSync(luma)) throw new Error("dist/luma is missing: run `bun run build` first");
  const mib = Number(process.env.LUMA_BENCH_PARSER_MIB ?? 4);
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-parser-memory-"));
  try {
    const tiny = join(dir, "tiny.luma");
    writeFileSync(tiny, "x = 1\n");
    const base = check(luma, tiny).rssBytes;
    console.log(`parser memory · luma check, ${fmt(mib, 0)} MiB inputs · runtime baseline ${fmt(base / MIB, 0)} MiB peak RSS`);
    for (const [name, source] of families(mib * MIB)) {
      const file = join(dir, "input.luma");
      writeFileSync(file, source);
      const bytes = Buffer.byteLength(source);
      const peak = check(luma, file);
      const perByte = Math.max(0, peak.rssBytes - base) / bytes;
      console.log(
        `  ${name.padEnd(36)} ${fmt(bytes / MIB, 2)} MiB  ${fmt(peak.ms, 0).padStart(6)} ms  peak RSS ${fmt(peak.rssBytes / MIB, 0).padStart(5)} MiB` +
          `  ${fmt(perByte, 1).padStart(6)} B/byte  exit ${peak.exitCode}  ${peak.firstLine.slice(0, 60)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchParserMemory();

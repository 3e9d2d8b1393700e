/**
 * Issue #17 figure: how long `luma lsp` takes to re-check a 5,000-line file after an edit
 * (target ≤ 100 ms). Two measurements:
 *  - in-process: `analyze()` (piecewise cached parse, check, types, name index) of the
 *    edited text — the work the server does per version;
 *  - end to end through `dist/luma lsp`: a didChange, then a hover on the changed text
 *    (which forces the re-check at once, skipping the debounce) until its answer arrives;
 *  - the same with a syntax error in the edit, so recovery (a second parse) is included.
 * The in-process figure is also split into its parts (parse, check + types, index).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { generateProgram } from "./generate-program";
import { fmt, median } from "./measure";

const RUNS = 15;

/** A minimal client over raw framing: the benchmark measures the server, not a client library. */
function rawClient(proc: Bun.Subprocess<"pipe", "pipe", "ignore">) {
  const pending = new Map<number, (v: unknown) => void>();
  let buffer = "";
  (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      for (;;) {
        const m = /Content-Length: (\d+)\r\n\r\n/.exec(buffer);
        if (!m) break;
        const start = m.index + m[0].length;
        const body = Buffer.from(buffer.slice(start));
        const length = Number(m[1]);
        if (body.length < length) break;
        const text = body.subarray(0, length).toString();
        buffer = body.subarray(length).toString();
        const msg = JSON.parse(text);
        if (msg.id !== undefined && pending.has(msg.id)) pending.get(msg.id)!(msg);
      }
    }
  })();
  let nextId = 1;
  const write = (m: object) => {
    const b = JSON.stringify({ jsonrpc: "2.0", ...m });
    proc.stdin.write(`Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`);
    proc.stdin.flush();
  };
  return {
    notify: (method: string, params: object) => write({ method, params }),
    request: (method: string, params: object) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        write({ id, method, params });
      }),
  };
}

export async function benchLspRecheck(): Promise<void> {
  const source = generateProgram(5000);
  const lines = source.split("\n").length;
  const { analyze } = await import("../src/lsp/analyze-document");
  const edit = (i: number) => source.replace("// generated benchmark program", `// generated benchmark program ${i}`);
  // Successive versions alternate the length of line 1, so each one moves every item after it.
  const moved = (i: number) => edit(i % 2 === 0 ? i : 100_000 + i);
  // The server keeps each document's parsed pieces between versions; so does this loop.
  const pieces = new Map();
  for (let i = 0; i < 3; i++) analyze("file:///b.luma", i, moved(i), pieces); // warm
  const inProcess: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const text = moved(i);
    const t0 = performance.now();
    analyze("file:///b.luma", i, text, pieces);
    inProcess.push(performance.now() - t0);
  }
  // Where an analysis spends its time: the piecewise parse, the checker with its types, the name index.
  const { recoveringParse } = await import("../src/lsp/recovering-parse");
  const { typeProgram } = await import("../src/check/index");
  const { buildIndex } = await import("../src/lsp/document-index");
  const split = { parse: [] as number[], check: [] as number[], index: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    let t0 = performance.now();
    const parsed = recoveringParse(moved(RUNS + i), "/b.luma", pieces);
    split.parse.push(performance.now() - t0);
    t0 = performance.now();
    const { types } = typeProgram(parsed.program);
    split.check.push(performance.now() - t0);
    t0 = performance.now();
    buildIndex(parsed.program, types);
    split.index.push(performance.now() - t0);
  }

  const luma = resolve("dist/luma");
  if (!existsSync(luma)) throw new Error("dist/luma is missing: run `bun run build` first");
  const proc = Bun.spawn([luma, "lsp"], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const client = rawClient(proc);
  const uri = "file:///bench/big.luma";
  await client.request("initialize", { capabilities: {} });
  client.notify("initialized", {});
  client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "luma", version: 0, text: source } });
  const roundTrip = async (version: number, text: string) => {
    const t0 = performance.now();
    client.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 30 } }, text }] });
    await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 3 } });
    return performance.now() - t0;
  };
  let version = 1;
  for (let i = 0; i < 3; i++) await roundTrip(version++, `// generated benchmark program`); // warm
  const clean: number[] = [];
  const broken: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    clean.push(await roundTrip(version++, `// generated benchmark program`));
    // Line 1 becomes `x = (` — a syntax error; the next edit restores the comment.
    broken.push(await roundTrip(version++, `x = (                         `));
    await roundTrip(version++, `// generated benchmark program`);
  }
  await client.request("shutdown", {});
  client.notify("exit", {});
  await proc.exited;
  console.log(
    `lsp re-check  ${lines}-line file after an edit: in-process, a line-1 insertion moving every item ${fmt(median(inProcess))} ms` +
      ` (piecewise parse ${fmt(median(split.parse))}, check + types ${fmt(median(split.check))}, name index ${fmt(median(split.index))})` +
      ` · luma lsp didChange→hover ${fmt(median(clean))} ms · with a syntax error ${fmt(median(broken))} ms (target ≤ 100 ms)`,
  );
}

if (import.meta.main) await benchLspRecheck();

/**
 * `luma lsp` as an attacker sees it: pathological documents and broken framing. The
 * server must answer every later request, never hang, never print a stack trace.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { ensureBinary } from "../support/luma-binary";
import { startLsp, type LspSession } from "./lsp-client";

/** Per test: these spawn the binary and parse large inputs, on a CI machine that may be loaded. */
const LIMIT_MS = 60_000;

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});

const hover = (uri: string, line: number, character: number) =>
  lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri }, position: { line, character } });

describe("no request blocks on a pathological input", () => {
  test("nesting far past the limit gets its diagnostic, and the server keeps answering", async () => {
    const uri = "file:///work/deep.luma";
    const { diagnostics } = await lsp.open(uri, `x = ${"(".repeat(200_000)}1${")".repeat(200_000)}\n`);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(await hover(uri, 0, 0)).toBeDefined();
  }, LIMIT_MS);

  test("thousands of broken items are capped in diagnostics and work", async () => {
    const uri = "file:///work/many.luma";
    const text = Array.from({ length: 3000 }, (_, i) => `schema S${i} {\n  a: \n`).join("");
    const { diagnostics } = await lsp.open(uri, text);
    expect(diagnostics.length).toBe(101);
    expect(diagnostics[100].message).toBe("More than 100 items with syntax errors: the rest of the file is not checked.");
    expect(diagnostics[100].severity).toBe(2);
    const symbols = await lsp.conn.sendRequest("textDocument/documentSymbol", { textDocument: { uri } });
    expect(Array.isArray(symbols)).toBe(true);
  }, LIMIT_MS);

  test("an unterminated string opening the file is one diagnostic at its quote", async () => {
    const uri = "file:///work/open-string.luma";
    const { diagnostics } = await lsp.open(uri, `x = "never closed\n${"schema A {\n  a: int\n}\n".repeat(200)}`);
    expect(diagnostics[0].range.start).toEqual({ line: 0, character: 4 });
  }, LIMIT_MS);

  test("positions past the end of a line or of the file clamp; unknown documents are an error, not a crash", async () => {
    const uri = "file:///work/small.luma";
    await lsp.open(uri, "x = 1\n");
    expect(await hover(uri, 999, 999)).toBeNull();
    await expect(hover("file:///work/never-opened.luma", 0, 0)).rejects.toThrow("not open");
  }, LIMIT_MS);

  test("non-ASCII text: columns are UTF-16 code units", async () => {
    const uri = "file:///work/unicode.luma";
    const { diagnostics } = await lsp.open(uri, 'ä = "😀"\ny: int = "😀😀"\n');
    const bad = diagnostics.find((d) => d.range.start.line === 1);
    expect(bad?.range.start.character).toBe(9);
    expect(bad?.range.end.character).toBe(15);
  }, LIMIT_MS);
});

describe("broken framing never stops the server", () => {
  const body = (m: object) => {
    const b = JSON.stringify({ jsonrpc: "2.0", ...m });
    return Buffer.from(`Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`);
  };

  test("a frame split mid-character and mid-header, then an oversized length, then stdin closing", async () => {
    const proc = spawn(ensureBinary(), ["lsp"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (d) => (out += String(d)));
    proc.stderr.on("data", (d) => (err += String(d)));
    const exited = new Promise<number | null>((r) => proc.on("exit", r));
    const init = body({ id: 1, method: "initialize", params: { capabilities: {}, clientInfo: { name: "çlient ✓" } } });
    // One byte at a time: headers and a multi-byte character cut anywhere.
    for (const byte of init) proc.stdin.write(Buffer.from([byte]));
    await new Promise<void>((resolve) => {
      const poll = () => (out.includes('"id":1,') ? resolve() : setTimeout(poll, 10));
      poll();
    });
    proc.stdin.write(`Content-Length: ${10 ** 12}\r\n\r\n`);
    proc.stdin.end();
    expect(await exited).toBe(1);
    expect(out).toContain('"id":1,"result"');
    expect(out).toContain('"code":-32700');
    expect(err).not.toMatch(/\n\s+at /);
  }, LIMIT_MS);
});

describe("a frame without Content-Length does not wedge the server", () => {
  const framed = (m: object) => {
    const b = JSON.stringify({ jsonrpc: "2.0", ...m });
    return `Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`;
  };

  test("the bad frame is answered -32700 and skipped; the requests after it are answered (they were all lost)", async () => {
    const proc = spawn(ensureBinary(), ["lsp"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (d) => (out += String(d)));
    proc.stderr.on("data", (d) => (err += String(d)));
    const exited = new Promise<number | null>((r) => proc.on("exit", r));
    // A header block with no length, its body running straight into the next frame.
    proc.stdin.write(`Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0","id":99,"method":"initialize","params":{}}`);
    proc.stdin.write(framed({ id: 1, method: "initialize", params: { capabilities: {} } }));
    await new Promise<void>((resolve) => {
      const poll = () => (out.includes('"id":1,') ? resolve() : setTimeout(poll, 10));
      poll();
    });
    // A second bad frame, cut across writes, and the server still answers after it.
    proc.stdin.write("X-Junk: 1\r\n\r\n{\"half\":");
    proc.stdin.write(`true}${framed({ id: 2, method: "shutdown" })}`);
    await new Promise<void>((resolve) => {
      const poll = () => (out.includes('"id":2,') ? resolve() : setTimeout(poll, 10));
      poll();
    });
    proc.stdin.write(framed({ method: "exit" }));
    expect(await exited).toBe(0);
    expect(out).toContain('"id":1,"result"');
    expect(out).toContain('"id":2,"result"');
    expect(out).toContain('"code":-32700');
    expect(out).not.toContain('"id":99');
    expect(err).not.toMatch(/\n\s+at /);
  }, 20_000);
});

/**
 * Test support for `luma lsp`: spawns the real `dist/luma lsp` and talks to it with the
 * standard client library (`vscode-languageserver-protocol`), as an editor does. Published
 * diagnostics are collected per URI; `nextDiagnostics(uri, version)` waits for the set
 * of a given document version.
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { ensureBinary } from "../support/luma-binary";

export interface LspSession {
  conn: ProtocolConnection;
  proc: ChildProcess;
  exited: Promise<number | null>;
  diagnostics(uri: string, version?: number): Promise<PublishDiagnosticsParams>;
  /** Waits for a publication for `uri` after the `published` count `since`. */
  nextDiagnostics(uri: string, since: number): Promise<PublishDiagnosticsParams>;
  publishedCount(): number;
  open(uri: string, text: string, version?: number): Promise<PublishDiagnosticsParams>;
  stderr(): string;
  close(): Promise<number | null>;
}

export async function startLsp(args: string[] = []): Promise<LspSession> {
  const proc = spawn(ensureBinary(), ["lsp", ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  proc.stderr?.on("data", (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  conn.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (const w of waiters.splice(0)) w();
  });
  conn.listen();
  await conn.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  await conn.sendNotification("initialized", {});

  const waitFor = async (found: () => PublishDiagnosticsParams | undefined): Promise<PublishDiagnosticsParams> => {
    for (;;) {
      const hit = found();
      if (hit) return hit;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const diagnostics = (uri: string, version?: number) =>
    waitFor(() => published.findLast((p) => p.uri === uri && (version === undefined || p.version === version)));
  return {
    conn,
    proc,
    exited,
    diagnostics,
    nextDiagnostics: (uri, since) => waitFor(() => published.slice(since).findLast((p) => p.uri === uri)),
    publishedCount: () => published.length,
    async open(uri, text, version = 1) {
      await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "luma", version, text } });
      return diagnostics(uri, version);
    },
    stderr: () => err,
    async close() {
      await conn.sendRequest("shutdown");
      await conn.sendNotification("exit");
      const code = await exited;
      conn.dispose();
      return code;
    },
  };
}

/** The 0-based position of the `nth` occurrence of `needle` in `text` (plus `delta` columns). */
export function positionOf(text: string, needle: string, nth = 0, delta = 0): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`'${needle}' #${nth} not in text`);
  }
  at += delta;
  const before = text.slice(0, at);
  const line = before.split("\n").length - 1;
  return { line, character: at - (before.lastIndexOf("\n") + 1) };
}

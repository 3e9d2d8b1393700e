/**
 * `luma lsp`: the Language Server (LSP 3.17) over stdio. One table maps each method to
 * its handler; every handler reads the document's `Analysis` (the real parser, checker
 * and typer) and answers plain data. The server is single-threaded and each request is
 * bounded (analysis is linear in the text, lists are capped), so a request is answered
 * before the next is read.
 *
 * Lifecycle as the spec sets it: requests before `initialize` get ServerNotInitialized,
 * requests after `shutdown` get InvalidRequest, and `exit` ends the process with 0 after
 * a shutdown, 1 otherwise (also when stdin closes first). A handler that throws answers
 * InternalError with the message; it never brings the server down.
 */
import { VERSION } from "../version";
import { completionItems } from "./completion-items";
import { DocumentStore, type TextChange } from "./document-store";
import { formatDocument } from "./format-hook";
import { hoverMarkdown } from "./hover-text";
import { FrameReader, RPC_ERRORS, frame, type JsonRpcMessage } from "./json-rpc-framing";
import type { Position } from "./line-index";
import { definitionAt, documentSymbols, prepareRenameAt, referencesAt, renameAt } from "./navigation";
import { fileOfUri } from "./analyze-document";

type Params = Record<string, any>;

class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export interface LspIo {
  write(text: string): void;
  /** Calls `onChunk` for each chunk of input and `onEnd` when the input closes. */
  read(onChunk: (chunk: Uint8Array) => void, onEnd: () => void): void;
}

const CAPABILITIES = {
  positionEncoding: "utf-16",
  textDocumentSync: { openClose: true, change: 2 },
  hoverProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  documentSymbolProvider: true,
  renameProvider: { prepareProvider: true },
  completionProvider: { triggerCharacters: [".", "@"] },
  documentFormattingProvider: formatDocument !== undefined,
};

export function serveLsp(io: LspIo): Promise<number> {
  let initialized = false;
  let shuttingDown = false;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));

  // A client that went away (EPIPE) ends the server: there is nobody left to answer.
  let broken = false;
  const send = (message: JsonRpcMessage) => {
    if (broken) return;
    try {
      io.write(frame(message));
    } catch {
      broken = true;
      finish(1);
    }
  };
  const store = new DocumentStore((uri, version, diagnostics) =>
    send({ method: "textDocument/publishDiagnostics", params: { uri, version, diagnostics } }),
  );

  /** The analysis of the document a request names, and the offset of its position. */
  const at = (p: Params) => {
    const a = store.current(String(p?.textDocument?.uri));
    if (!a) throw new RpcError(RPC_ERRORS.invalidParams, `document not open: ${String(p?.textDocument?.uri)}`);
    const pos = p.position as Position | undefined;
    return { a, offset: pos ? a.lines.offset(pos) : 0, partner: (file?: string) => store.partnerOf(a, file), sharing: (file: string) => store.sharing(file, a.uri) };
  };

  const requests: Record<string, (p: Params) => unknown> = {
    initialize: () => {
      initialized = true;
      return { capabilities: CAPABILITIES, serverInfo: { name: "luma", version: VERSION } };
    },
    shutdown: () => {
      shuttingDown = true;
      return null;
    },
    "textDocument/hover": (p) => {
      const { a, offset, partner } = at(p);
      const value = hoverMarkdown(a, offset, partner);
      return value === undefined ? null : { contents: { kind: "markdown", value } };
    },
    "textDocument/definition": (p) => {
      const { a, offset, partner } = at(p);
      return definitionAt(a, offset, partner) ?? null;
    },
    "textDocument/references": (p) => {
      const { a, offset, partner, sharing } = at(p);
      return referencesAt(a, offset, p.context?.includeDeclaration !== false, partner, sharing);
    },
    "textDocument/documentSymbol": (p) => documentSymbols(at(p).a),
    "textDocument/prepareRename": (p) => {
      const { a, offset } = at(p);
      return prepareRenameAt(a, offset);
    },
    "textDocument/rename": (p) => {
      const { a, offset, partner, sharing } = at(p);
      const result = renameAt(a, offset, String(p.newName), partner, sharing);
      if (result && "error" in result) throw new RpcError(RPC_ERRORS.requestFailed, result.error);
      return result;
    },
    "textDocument/completion": (p) => {
      const { a, offset } = at(p);
      return { isIncomplete: false, items: completionItems(a, offset) };
    },
    "textDocument/formatting": (p) => {
      const { a } = at(p);
      const formatted = formatDocument?.(a.text, fileOfUri(a.uri));
      if (formatted === undefined || formatted === a.text) return [];
      return [{ range: a.lines.range(0, a.text.length), newText: formatted }];
    },
  };

  const notifications: Record<string, (p: Params) => void> = {
    initialized: () => {},
    exit: () => finish(shuttingDown ? 0 : 1),
    "textDocument/didOpen": (p) => store.open(String(p.textDocument.uri), Number(p.textDocument.version ?? 0), String(p.textDocument.text ?? "")),
    "textDocument/didChange": (p) =>
      store.change(String(p.textDocument.uri), Number(p.textDocument.version ?? 0), (p.contentChanges ?? []) as TextChange[]),
    "textDocument/didClose": (p) => store.close(String(p.textDocument.uri)),
  };

  const handle = (m: JsonRpcMessage) => {
    const isRequest = m.id !== undefined && m.id !== null && typeof m.method === "string";
    if (!isRequest) {
      // Notifications (and stray responses) never get an answer; a failing one is only logged.
      const note = typeof m.method === "string" ? notifications[m.method] : undefined;
      if (!note || (!initialized && m.method !== "exit")) return;
      try {
        note((m.params ?? {}) as Params);
      } catch (e) {
        send({ method: "window/logMessage", params: { type: 1, message: `luma lsp: ${m.method} failed: ${String(e)}` } });
      }
      return;
    }
    const method = m.method as string;
    try {
      if (!initialized && method !== "initialize") throw new RpcError(RPC_ERRORS.serverNotInitialized, "the server is not initialized yet");
      if (shuttingDown) throw new RpcError(RPC_ERRORS.invalidRequest, "the server is shutting down");
      const handler = Object.hasOwn(requests, method) ? requests[method] : undefined;
      if (!handler) throw new RpcError(RPC_ERRORS.methodNotFound, `unknown method ${method}`);
      send({ id: m.id, result: handler((m.params ?? {}) as Params) ?? null });
    } catch (e) {
      const code = e instanceof RpcError ? e.code : RPC_ERRORS.internalError;
      send({ id: m.id, error: { code, message: e instanceof Error ? e.message : String(e) } });
    }
  };

  const reader = new FrameReader(handle, (reason) =>
    send({ id: null, error: { code: RPC_ERRORS.parseError, message: `luma lsp: ignored ${reason}` } }),
  );
  io.read((chunk) => reader.push(chunk), () => finish(shuttingDown ? 0 : 1));
  return done;
}

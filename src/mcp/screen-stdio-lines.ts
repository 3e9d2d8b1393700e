/**
 * What `luma mcp` reads on stdin, line by line, before the SDK's stdio transport sees it: a
 * line the SDK cannot take gets its JSON-RPC error here instead of nothing.
 *
 * The SDK's transport parses each line and, when it is not JSON or not a JSON-RPC message,
 * reports an error to the server and drops the line: the client that sent it waited for an
 * answer forever. So a line that is not JSON is answered -32700 (parse error), a batch (a
 * JSON array: the protocol removed batching in 2025-06-18) and any other value that is not a
 * JSON-RPC message -32600 (invalid request), and a request whose `params` is not an object
 * -32602 (invalid params) with the request's id. A notification gets no answer (JSON-RPC
 * answers none), so a bad one is dropped. Blank lines are skipped. Good lines go on, whole.
 *
 * A line longer than the message limit is not held here: its bytes go on to the transport,
 * which reports the oversize and closes (message-size-limit.ts).
 */
import { Readable } from "node:stream";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const NEWLINE = 0x0a;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

type Id = string | number;
const isId = (v: unknown): v is Id => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

const failure = (id: Id | null, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } }) as unknown as JSONRPCMessage;

/** The error answer for one line, or undefined when the SDK can take it (or it wants no answer). */
export function screenLine(line: string): { answer?: JSONRPCMessage; forward: boolean } {
  if (line.trim() === "") return { forward: false };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { forward: false, answer: failure(null, PARSE_ERROR, "Parse error: the line is not JSON (luma mcp reads one JSON-RPC message per line).") };
  }
  if (Array.isArray(value)) {
    return { forward: false, answer: failure(null, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported (MCP removed batching in 2025-06-18); send one message per line.") };
  }
  if (!isObject(value)) return { forward: false, answer: failure(null, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object.") };
  const id = isId(value.id) ? value.id : null;
  const isRequest = typeof value.method === "string" && id !== null;
  if (typeof value.method === "string" && value.params !== undefined && !isObject(value.params)) {
    // A notification is never answered: dropped, as the SDK would drop it.
    if (!isRequest) return { forward: false };
    return { forward: false, answer: failure(id, INVALID_PARAMS, `Invalid params: 'params' of ${value.method} must be an object.`) };
  }
  if (JSONRPCMessageSchema.safeParse(value).success) return { forward: true };
  if (typeof value.method === "string" && !isRequest && !("id" in value)) return { forward: false };
  return { forward: false, answer: failure(id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request, notification or response.") };
}

/**
 * `input` with every line the SDK cannot take answered through `answer` and left out.
 *
 * @example
 * const transport = new StdioServerTransport(screenedInput(process.stdin, (m) => void transport.send(m), MAX), process.stdout);
 */
export function screenedInput(input: NodeJS.ReadableStream, answer: (message: JSONRPCMessage) => void, maxBytes: number): Readable {
  const out = new Readable({ read() {} });
  let pending: Buffer[] = [];
  let size = 0;
  // Once a line passed the limit, the transport has it and closes: the rest goes on unread.
  let passThrough = false;
  const take = (line: Buffer) => {
    const verdict = screenLine(line.toString("utf8").replace(/\r$/, ""));
    if (verdict.answer !== undefined) answer(verdict.answer);
    if (verdict.forward) out.push(Buffer.concat([line, Buffer.from("\n")]));
  };
  input.on("data", (data: Buffer | string) => {
    let chunk = typeof data === "string" ? Buffer.from(data) : data;
    if (passThrough) return void out.push(chunk);
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE)) {
      const line = pending.length === 0 ? chunk.subarray(0, at) : Buffer.concat([...pending, chunk.subarray(0, at)]);
      pending = [];
      size = 0;
      chunk = chunk.subarray(at + 1);
      take(line);
    }
    if (chunk.length === 0) return;
    pending.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      passThrough = true;
      out.push(Buffer.concat(pending));
      pending = [];
    }
  });
  input.on("end", () => out.push(null));
  input.on("error", (e: Error) => out.destroy(e));
  return out;
}

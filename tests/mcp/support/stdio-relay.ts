/**
 * A Streamable HTTP front for `luma mcp` over **stdio**, so the conformance suite (which
 * speaks only HTTP) tests the stdio server: each HTTP session the suite opens starts its own
 * `dist/luma mcp FILE` child and relays JSON-RPC messages both ways, unchanged.
 *
 * The relay is plain plumbing of the SDK's own transports; the one thing it decides is which
 * HTTP stream a message from the server goes on (stdio has one stream, HTTP one per request):
 * an answer goes on its request's (the SDK routes it by id), a progress notification on the
 * stream of the request that carries its token, and any other server message (a log line, an
 * elicitation request) on the stream of the client request in flight (the suite's scenarios
 * run one call at a time).
 */
import { randomUUID } from "node:crypto";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ensureBinary } from "../../support/luma-binary";

export interface Relay {
  url: string;
  stop(): Promise<void>;
}

type Id = string | number;

function relaySession(args: string[], env: Record<string, string>, sessions: Map<string, WebStandardStreamableHTTPServerTransport>, children: StdioClientTransport[]) {
  const child = new StdioClientTransport({ command: ensureBinary(), args: ["mcp", ...args], env, stderr: "ignore" });
  children.push(child);
  const open: Id[] = [];
  const tokens = new Map<string | number, Id>();
  const http: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (id) => void sessions.set(id, http),
  });
  http.onmessage = (message) => {
    if ("id" in message && "method" in message) {
      open.push(message.id);
      const token = (message.params as { _meta?: { progressToken?: string | number } } | undefined)?._meta?.progressToken;
      if (token !== undefined) tokens.set(token, message.id);
    }
    void child.send(message);
  };
  child.onmessage = (message: JSONRPCMessage) => {
    if ("id" in message && !("method" in message)) {
      const at = open.indexOf(message.id as Id);
      if (at >= 0) open.splice(at, 1);
      void http.send(message);
      return;
    }
    const token = "method" in message && message.method === "notifications/progress" ? (message.params as { progressToken: string | number }).progressToken : undefined;
    const related = token !== undefined ? tokens.get(token) : open.at(-1);
    void http.send(message, related === undefined ? undefined : { relatedRequestId: related });
  };
  http.onclose = () => void child.close();
  return { http, ready: child.start() };
}

/** Serves `luma mcp ARGS…` (stdio) at an HTTP URL, one child per session. */
export async function startStdioRelay(args: string[], env: Record<string, string>): Promise<Relay> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const children: StdioClientTransport[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const id = req.headers.get("mcp-session-id");
      if (id !== null) {
        const known = sessions.get(id);
        return known ? known.handleRequest(req) : new Response("Session not found", { status: 404 });
      }
      const { http, ready } = relaySession(args, env, sessions, children);
      await ready;
      return http.handleRequest(req);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/mcp`,
    async stop() {
      await Promise.all(children.map((c) => c.close()));
      server.stop(true);
    },
  };
}

/**
 * The client end of one configured MCP server (`mcp_servers.<name>` in luma.config.json),
 * with the official SDK's `Client`: started as a child process over stdio (`command`), or
 * reached over Streamable HTTP (`url`, with headers whose values come from the environment
 * variables `headers_env` names — the config never holds a secret).
 *
 * A stdio server runs in the project directory (the config file's), so relative paths in
 * `command` and `args` read as they do in the file. It gets a small environment: the SDK's default inherited variables (PATH,
 * HOME…) plus the entry's `env` — not Luma's whole environment, whose API keys are none of
 * its business. Its stderr is drained and dropped, so its logs never mix with the program's.
 *
 * Faults stay with the server: a connection that closes (the process died, the HTTP server
 * went away) marks it down; a call then reconnects once, and when that fails the call is a
 * retryable TOOL_UNAVAILABLE naming the server — other servers' tools are not touched.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../config/config-types";
import { LumaError, startupError } from "../diagnostics/luma-error";
import { redactSecrets, urlPasswordSecrets } from "../diagnostics/redact-secrets";
import { LumaToolError } from "../luma-module";
import { VERSION } from "../version";
import { deliverBeforeClose } from "./deliver-before-close";
import { killOnExit } from "./kill-children-on-exit";
import { failUnansweredStreams } from "./unanswered-streams";
import { isOversizeMessage, MAX_MESSAGE_BYTES, MAX_MESSAGE_TEXT } from "./message-size-limit";
import { isAuthorizationFailure, LumaOAuthProvider } from "./oauth/oauth-provider";
import { tokenStoreFor } from "./oauth/token-store";
import { answerElicitation } from "./answer-elicitation";
import { answerSampling } from "./answer-sampling";
import { ForwardersInFlight } from "./forward-elicitation";
import { takeServerLogs, type NoticeSinks } from "./server-notices";
import type { LateRunParts } from "../runtime/tools/registry/registry-types";
import type { AskValue } from "../runtime/tools/tool-invoker-types";

/** A tool as the server lists it (the parts Luma reads). */
export interface RemoteTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** `taskSupport: "required"`: a task-based tool, called as a task (task-call.ts). */
  execution?: { taskSupport?: string };
}

export interface ServerConnection {
  name: string;
  tools: ReadonlyMap<string, RemoteTool>;
  /** The connected client; reconnects first when the server went down. Throws TOOL_UNAVAILABLE. */
  client(tool: string): Promise<Client>;
  /** The connection failed under a call: mark it down (the next call reconnects). */
  lost(): void;
  /** Why Luma itself closed the connection last, when it did (a message over the size limit). */
  fault(): string | undefined;
  /** `text` from the server without the secrets this connection sends (it may echo them). */
  redact(text: string): string;
  /** Where the server's log lines and a call's progress go (server-notices.ts). */
  sinks: NoticeSinks;
  /** The served calls (`luma mcp`) with a call in flight here: a server's elicitation goes to theirs. */
  forwarders: ForwardersInFlight;
  /**
   * After a call failed with UnauthorizedError (the server asked for more scopes, and the
   * person must authorize again): waits for that authorization and finishes it. True when
   * the call may be sent again.
   */
  reauthorize(e: unknown): Promise<boolean>;
  close(): Promise<void>;
}

/** Start-up waits this long for a server to answer `initialize` and `tools/list`. */
const CONNECT_TIMEOUT_MS = 30_000;

const headersOf = (name: string, entry: McpServerConfig, env: Record<string, string | undefined>) => {
  const headers: Record<string, string> = {};
  for (const [header, variable] of Object.entries(entry.headers_env ?? {})) {
    const value = env[variable];
    if (value === undefined || value === "") {
      throw startupError(`MCP server '${name}': header ${header} needs the environment variable ${variable}, which is not set.`, { catalogCode: "E0801" });
    }
    headers[header] = value;
  }
  return headers;
};

function makeTransport(name: string, entry: McpServerConfig, env: Record<string, string | undefined>, cwd: string, authProvider?: LumaOAuthProvider): Transport {
  if (entry.url !== undefined) {
    const unanswered = failUnansweredStreams();
    const transport = new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: headersOf(name, entry, env) }, fetch: unanswered.fetch, authProvider });
    unanswered.attach(transport);
    return deliverBeforeClose(transport);
  }
  const inherited: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) {
    const value = env[key];
    if (value !== undefined && !value.startsWith("()")) inherited[key] = value;
  }
  const transport = new StdioClientTransport({
    command: entry.command!,
    args: entry.args ?? [],
    env: { ...inherited, ...entry.env },
    cwd,
    stderr: "pipe",
    maxBufferSize: MAX_MESSAGE_BYTES,
  });
  transport.stderr?.on("data", () => {});
  return deliverBeforeClose(transport);
}

/**
 * What this connection sends that is secret: each `headers_env` value (and its token after a
 * scheme, `Bearer <token>`), a URL's password. A server that echoes them back in an error
 * ("bad token: Bearer …") must not put them into Luma's messages and traces.
 */
const secretsOf = (entry: McpServerConfig, env: Record<string, string | undefined>): string[] => {
  const values = Object.values(entry.headers_env ?? {}).flatMap((variable) => {
    const value = env[variable];
    const token = value === undefined ? undefined : /^\S+\s+(\S+)$/.exec(value)?.[1];
    return [value, token].filter((v): v is string => v !== undefined);
  });
  return entry.url === undefined ? values : [...values, ...urlPasswordSecrets(entry.url)];
};

/** How messages name a server's address: a URL without any user:password part it was written with. */
const where = (entry: McpServerConfig) => {
  if (entry.url === undefined) return `(${entry.command})`;
  const url = new URL(entry.url);
  url.username = "";
  url.password = "";
  return `at ${url.href}`;
};

/** The most a tool list may hold, over all its pages: far past any real server's, far below what hurts. */
export const TOOL_LIST_LIMITS = { pages: 1_000, tools: 10_000, bytes: 32 * 1024 * 1024, bytesText: "32 MiB" } as const;

/**
 * Every page of the tool list, within one CONNECT_TIMEOUT_MS for them all and the
 * TOOL_LIST_LIMITS: a server whose pages never end (each answered at once, the same cursor
 * again or always a new one) held start-up forever, and then, bounded by time alone, held
 * everything it sent for 30 s (4.17 GB of pages). The pages, the tools and the bytes of the
 * list (its tools and cursors as JSON) are counted as they arrive.
 */
async function listAll(client: Client): Promise<Map<string, RemoteTool>> {
  const tools = new Map<string, RemoteTool>();
  const seen = new Set<string>();
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  let cursor: string | undefined;
  let pages = 0;
  let listed = 0;
  let bytes = 0;
  do {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`its tool list did not end within ${CONNECT_TIMEOUT_MS / 1000} s (${seen.size} pages)`);
    if (pages === TOOL_LIST_LIMITS.pages) throw new Error(`its tool list did not end within ${TOOL_LIST_LIMITS.pages} pages (Luma reads at most that many)`);
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: left });
    pages++;
    listed += page.tools.length;
    bytes += Buffer.byteLength(JSON.stringify(page.tools)) + Buffer.byteLength(page.nextCursor ?? "");
    if (listed > TOOL_LIST_LIMITS.tools) throw new Error(`its tool list has more than ${TOOL_LIST_LIMITS.tools} tools (Luma reads at most that many)`);
    if (bytes > TOOL_LIST_LIMITS.bytes) throw new Error(`its tool list is larger than ${TOOL_LIST_LIMITS.bytesText} (Luma reads at most that much)`);
    for (const t of page.tools) tools.set(t.name, t as RemoteTool);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor)) throw new Error(`tools/list sent the cursor ${JSON.stringify(cursor.slice(0, 100))} a second time (its pages loop)`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return tools;
}

interface Endpoint {
  name: string;
  entry: McpServerConfig;
  env: Record<string, string | undefined>;
  /** The project directory: where a stdio server runs, and OAuth tokens are kept (sealed). */
  cwd: string;
  /** One line for the person (the URL to open for an authorization); dropped when absent. */
  notice?: (line: string) => void;
  /** The person at the terminal, who answers the server's elicitation requests; absent: they are refused. */
  askPerson?: AskValue;
  /** A durable run (a journal): a server's elicitation requests nobody answers live wait in the journal. */
  journaled?: boolean;
  /** `luma mcp`: a server's elicitation requests go to the client of the served call that reached it. */
  forwardElicitation?: boolean;
  /** The run's models, filled once they exist: a server with `sampling` configured is answered by one. */
  models?: LateRunParts;
}

/** How many times one connect or call goes through an authorization before it gives up (a server that keeps asking). */
const MAX_AUTHORIZATIONS = 2;

async function open(endpoint: Endpoint, forwarders: ForwardersInFlight, sinks: NoticeSinks, onClose: () => void, onFault: (why: string) => void, auth?: LumaOAuthProvider) {
  const { name, entry, env, cwd } = endpoint;
  for (let authorizations = 0; ; authorizations++) {
    // Elicitation is announced only when someone can answer it: a person at the terminal, or
    // the client of a served call (`luma mcp`), or the journal of a durable run. Sampling only for a server whose entry names a model to answer it.
    const sampling = entry.sampling !== undefined && endpoint.models !== undefined;
    const elicits = endpoint.askPerson !== undefined || endpoint.forwardElicitation === true || endpoint.journaled === true;
    const client = new Client(
      { name: "luma", version: VERSION },
      { capabilities: { ...(elicits ? { elicitation: { form: {} } } : {}), ...(sampling ? { sampling: {} } : {}) } },
    );
    if (elicits) answerElicitation(client, name, endpoint.askPerson, forwarders, endpoint.forwardElicitation === true, sinks.redact);
    if (sampling) answerSampling(client, name, entry.sampling!, endpoint.models!, env, { calls: forwarders, forward: endpoint.forwardElicitation === true, redact: sinks.redact });
    takeServerLogs(client, sinks);
    // The transport reports this just before it closes the connection under the call.
    client.onerror = (e) => {
      if (isOversizeMessage(e)) onFault(`sent a message larger than ${MAX_MESSAGE_TEXT} (the limit of one stdio message)`);
    };
    const transport = makeTransport(name, entry, env, cwd, auth);
    let child: { forget(): void } | undefined;
    client.onclose = () => {
      child?.forget();
      onClose();
    };
    if (transport instanceof StdioClientTransport) {
      // From the spawn on, not after `initialize`: a server that never answers is killed too.
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        if (transport.pid !== null) child = killOnExit(transport.pid);
      };
    }
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      return { client, transport, tools: await listAll(client) };
    } catch (e) {
      client.onclose = () => child?.forget();
      await client.close().catch(() => {});
      // A 401: the SDK discovered, registered and sent the person to authorize; finish that and connect again.
      const code = e instanceof UnauthorizedError && authorizations < MAX_AUTHORIZATIONS ? auth?.takeCode() : undefined;
      if (code === undefined) throw e;
      await (transport as StreamableHTTPClientTransport).finishAuth(await code);
    }
  }
}

/** Connects at start-up and reads the tool list; a failure is a start-up error naming the server. */
export async function connectServer(endpoint: Endpoint): Promise<ServerConnection> {
  const { name, entry } = endpoint;
  const auth =
    entry.url === undefined
      ? undefined
      : new LumaOAuthProvider({
          server: name,
          config: entry.oauth,
          store: tokenStoreFor({ server: name, url: entry.url, projectDir: endpoint.cwd, env: endpoint.env }),
          env: endpoint.env,
          notice: endpoint.notice ?? (() => {}),
        });
  const secrets = secretsOf(entry, endpoint.env);
  const redact = (text: string) => redactSecrets(text, [...secrets, ...(auth?.secrets() ?? [])]);
  let up = true;
  let closing = false;
  let fault: string | undefined;
  const down = () => void (up = false);
  const faulted = (why: string) => void (fault = why);
  let current: { client: Client; transport: Transport; tools: Map<string, RemoteTool> };
  const forwarders = new ForwardersInFlight();
  const sinks: NoticeSinks = { server: name, trace: () => endpoint.models?.trace, stderr: endpoint.notice, redact };
  try {
    current = await open(endpoint, forwarders, sinks, down, faulted, auth);
  } catch (e) {
    auth?.close();
    if (e instanceof LumaError) throw e;
    const why = redact((e as Error).message ?? String(e));
    if (auth !== undefined && isAuthorizationFailure(e)) {
      throw startupError(`MCP server '${name}' ${where(entry)} could not be authorized: ${why || "it refused the token"}`, { catalogCode: "E0815" });
    }
    throw startupError(`MCP server '${name}' ${where(entry)} failed to start: ${why}`, { catalogCode: "E0802" });
  }
  const unavailable = (tool: string, why: string) =>
    new LumaToolError({
      code: "TOOL_UNAVAILABLE",
      message: `Tool '${tool}' is unavailable: MCP server '${name}' ${why}.`,
      retryable: true,
    });
  let reconnecting: Promise<void> | undefined;
  return {
    name,
    tools: current.tools,
    async client(tool) {
      if (closing) throw unavailable(tool, "is shutting down");
      if (!up) {
        reconnecting ??= open(endpoint, forwarders, sinks, down, faulted, auth).then(
          (next) => {
            current = next;
            up = true;
            fault = undefined;
          },
          () => {},
        ).finally(() => (reconnecting = undefined));
        await reconnecting;
        if (!up) throw unavailable(tool, "is down (its connection closed, and reconnecting failed)");
      }
      return current.client;
    },
    lost: down,
    forwarders,
    sinks,
    fault: () => fault,
    redact,
    async reauthorize(e) {
      const code = e instanceof UnauthorizedError ? auth?.takeCode() : undefined;
      if (code === undefined) return false;
      await (current.transport as StreamableHTTPClientTransport).finishAuth(await code);
      return true;
    },
    async close() {
      closing = true;
      auth?.close();
      await current.client.close().catch(() => {});
    },
  };
}

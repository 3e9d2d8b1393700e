/**
 * One MCP session of `luma mcp`: the SDK's low-level `Server` with Luma's handlers.
 *
 * - `tools/list` pages the served tools (list-pages.ts) and shapes each for the session's
 *   protocol version (version-shaping.ts); `tools/call` of a name not served is invalid
 *   params (JSON-RPC −32602), as the protocol says of an unknown tool.
 * - `tools/call` runs in the call's notices (call-notices.ts): its log lines and, when the
 *   request carries a progress token, its pipeline steps and `ask` turns reach the client.
 * - `logging/setLevel` sets what the session's log notifications include.
 * - `resources/*` serve the program's queries (served-resources.ts), read through the same
 *   pipeline as a tool call.
 *
 * Approval and a person's values are asked of the client through elicitation, on the stream
 * of the call they belong to (elicit-value.ts, elicit-approval.ts); a `provider: "mcp"`
 * model's turns through sampling (sampling-transport.ts).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../version";
import type { WorkInFlight } from "../runtime/run/work-in-flight";
import { serveCall, type CallOptions, type CallToolAnswer, type ServeCallDeps } from "./serve-call";
import { ServedTaskStore, TASKS_CAPABILITY } from "./served-tasks";
import { elicitValue } from "./elicit-value";
import { elicitApproval } from "./elicit-approval";
import { forwardedElicitation } from "./forward-elicitation";
import type { ServedTool } from "./served-tools";
import { servedResources, type ServedResources } from "./served-resources";
import { callNotices, SessionLogLevel, withNotices } from "./call-notices";
import { page } from "./list-pages";
import { agreedVersion, hasProgressMessage, hasStructuredContent, toolEntry } from "./version-shaping";
import { readResource } from "./read-resource";
import { sessionSampler } from "./sampling-transport";
import { INVALID_PARAMS, ProtocolError } from "./protocol-error";

export interface ServedCatalog {
  tools: readonly ServedTool[];
  resources: ServedResources;
  pageSize: number;
}

export interface Session {
  server: Server;
  /** Connects the session's transport, learning the protocol version its client asks for. */
  connect(transport: Transport): Promise<void>;
}

type Extra = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1];

/** The version's answer: `structuredContent` only where the version defines it. */
const shaped = (answer: CallToolAnswer, version: string): CallToolAnswer => {
  if (answer.structuredContent === undefined || hasStructuredContent(version)) return answer;
  const { structuredContent: _dropped, ...rest } = answer;
  return rest as CallToolAnswer;
};

/** A tool the session's grant covers: any without a `scope`, or one whose scope the token grants (no grant: every tool). */
const grantedBy = (scopes: readonly string[] | undefined) => (t: ServedTool) => scopes === undefined || t.kind !== "tool" || t.scope === undefined || scopes.includes(t.scope);

/** One session; `scopes`: its OAuth grant, when the server takes OAuth tokens (oauth-access.ts). */
export function sessionServer(deps: ServeCallDeps, served: ServedCatalog, label: string, calls: WorkInFlight, scopes?: readonly string[]): Session {
  const tools = served.tools.filter(grantedBy(scopes));
  const catalog: ServedCatalog = scopes === undefined ? served : { ...served, tools, resources: servedResources(tools) };
  const byName = new Map(catalog.tools.map((t) => [t.name, t]));
  const hasResources = catalog.resources.resources.length + catalog.resources.templates.length > 0;
  const tasks = new ServedTaskStore();
  const server = new Server(
    { name: "luma", title: label, version: VERSION },
    {
      capabilities: { tools: { listChanged: false }, logging: {}, tasks: TASKS_CAPABILITY, ...(hasResources ? { resources: { listChanged: false } } : {}) },
      // Agent methods may be called as tasks (served-tasks.ts); the SDK answers tasks/* from this store.
      taskStore: tasks,
    },
  );
  let version = agreedVersion(undefined);
  const level = new SessionLogLevel();
  const listings = new Map<string, Record<string, unknown>[]>();
  const listing = () => listings.get(version) ?? listings.set(version, catalog.tools.map((t) => toolEntry(t, version))).get(version)!;

  const noticesOf = (extra: Extra) => {
    const progressToken = extra._meta?.progressToken;
    const notices = callNotices(level, (n) => extra.sendNotification(n as never), { progressToken, withMessage: hasProgressMessage(version) });
    // Tools in a sampling request are defined from 2025-11-25 on.
    notices.sample = sessionSampler(server, extra, () => version >= "2025-11-25");
    notices.elicit = forwardedElicitation(server, extra);
    return notices;
  };

  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    level.set(request.params.level);
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const { items, nextCursor } = page(listing(), request.params?.cursor, catalog.pageSize);
    return { tools: items as never, ...(nextCursor === undefined ? {} : { nextCursor }) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: '${request.params.name}' is not served by this program.`);
    const taskParams = (request.params as { task?: { ttl?: number } }).task;
    if (taskParams !== undefined && tool.kind === "method") {
      // Called now, fetched later: answered with the task; the method runs on (served-tasks.ts).
      const quiet = callNotices(level, (n) => extra.sendNotification(n as never), { withMessage: false });
      const run = (options: CallOptions) => withNotices(quiet, () => serveCall(deps, tool, request.params.arguments, { ...options, scopes })).then((a) => shaped(a, version));
      return (await tasks.start(taskParams, { requestId: extra.requestId, request, sessionId: extra.sessionId }, run, (work) => calls.track(work))) as never;
    }
    const approve = (name: string, _args: string, withinMs: number, writes = true) => elicitApproval(server, name, withinMs, extra, writes);
    const notices = noticesOf(extra);
    // A client tool's answer and an approval's note are asked of the client too (elicit-value.ts).
    const options = { signal: extra.signal, approve, askValue: elicitValue(server, extra), progress: notices.progress, scopes };
    const answer = await calls.track(withNotices(notices, () => serveCall(deps, tool, request.params.arguments, options)));
    // The SDK's client handles a notification a microtask after an answer read in the same
    // chunk, and drops progress that comes after its answer: the answer waits one turn of the
    // event loop, so the progress already written is usually read first.
    if (notices.progress) await new Promise((done) => setImmediate(done));
    return shaped(answer, version) as never;
  });
  if (hasResources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request) => {
      const { items, nextCursor } = page(catalog.resources.resources, request.params?.cursor, catalog.pageSize);
      return { resources: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
      const { items, nextCursor } = page(catalog.resources.templates, request.params?.cursor, catalog.pageSize);
      return { resourceTemplates: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
    });
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => {
      const notices = noticesOf(extra);
      const options = { signal: extra.signal, approve: (name: string, _a: string, withinMs: number, writes = false) => elicitApproval(server, name, withinMs, extra, writes), progress: notices.progress, scopes };
      return calls.track(withNotices(notices, () => readResource(deps, catalog.resources, request.params.uri, options)));
    });
  }
  return {
    server,
    async connect(transport) {
      await server.connect(transport);
      // The version the client asks for at `initialize` is the session's (the SDK agrees to it when supported).
      const receive = transport.onmessage;
      transport.onmessage = (message, extra) => {
        if ("method" in message && message.method === "initialize") version = agreedVersion((message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion);
        receive?.(message, extra);
      };
    },
  };
}

/**
 * The sessions of `luma mcp --http`, and their reclaiming when idle.
 *
 * Every `initialize` makes a session (an SDK transport and `Server`, about 23 KB), and a
 * client that never says goodbye (no DELETE: it crashed, or it is an attacker) left it in
 * memory for the life of the server: 10,000 `initialize`s held 218 MB more. A session is now
 * closed, and its id answered 404 as the protocol says of an ended session, once it has had no
 * request for the idle time (30 minutes by default; `LUMA_MCP_SESSION_IDLE_MS`). A session is
 * not idle while any of its requests is still being answered: a tool call running, an
 * approval awaited, a client's open GET stream — each counts until its response body ends or
 * the client drops it.
 */
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { startupError } from "../diagnostics/luma-error";

type Transport = WebStandardStreamableHTTPServerTransport;

export const DEFAULT_IDLE_MS = 30 * 60_000;

/** The idle time from `LUMA_MCP_SESSION_IDLE_MS` (a whole number of milliseconds, at least 1), else the default. */
export function idleTimeFrom(env: Record<string, string | undefined>): number {
  const text = env.LUMA_MCP_SESSION_IDLE_MS;
  if (text === undefined || text === "") return DEFAULT_IDLE_MS;
  const ms = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(ms >= 1)) throw startupError(`LUMA_MCP_SESSION_IDLE_MS=${text}: expected a whole number of milliseconds (at least 1; the default is ${DEFAULT_IDLE_MS}).`, { catalogCode: "E0804" });
  return ms;
}

interface Activity {
  /** Requests whose answers are still being sent. */
  busy: number;
  /** When the last of them ended (or the session began). */
  since: number;
}

export class SessionTable {
  private readonly sessions = new Map<string, Transport>();
  // Weak: a transport whose `initialize` failed never becomes a session and must not stay here.
  private readonly activity = new WeakMap<Transport, Activity>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly idleMs: number) {}

  add(id: string, transport: Transport): void {
    this.sessions.set(id, transport);
    if (!this.activity.has(transport)) this.activity.set(transport, { busy: 0, since: Date.now() });
  }

  get(id: string): Transport | undefined {
    return this.sessions.get(id);
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Answers one request through `transport`: busy until the answer's body is sent or dropped. */
  async handle(transport: Transport, req: Request): Promise<Response> {
    let activity = this.activity.get(transport);
    if (activity === undefined) this.activity.set(transport, (activity = { busy: 0, since: Date.now() }));
    const state = activity;
    state.busy++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      state.busy--;
      state.since = Date.now();
    };
    let res: Response;
    try {
      res = await transport.handleRequest(req);
    } catch (e) {
      end();
      throw e;
    }
    if (res.body === null) {
      end();
      return res;
    }
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            end();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (e) {
          end();
          controller.error(e);
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  /** Checks for idle sessions every so often (a quarter of the idle time, at most a minute). */
  start(): void {
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(this.idleMs / 4, 60_000)));
    this.sweeper.unref?.();
  }

  /** Closes every session idle for the idle time; its id is unknown from then on. */
  sweep(now = Date.now()): void {
    for (const [id, transport] of this.sessions) {
      const activity = this.activity.get(transport);
      if (activity === undefined || activity.busy > 0 || now - activity.since < this.idleMs) continue;
      this.sessions.delete(id);
      void transport.close().catch(() => {});
    }
  }

  async closeAll(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((t) => t.close()));
    this.sessions.clear();
  }
}

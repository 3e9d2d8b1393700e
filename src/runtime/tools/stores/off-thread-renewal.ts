/**
 * Lease renewals that do not need the main thread, for the stores shared between machines
 * (postgres, redis: idempotency claims and the Postgres journal's run lease).
 *
 * The heartbeat (steps/claim-heartbeat.ts, the run journal's timer) runs on the main thread,
 * which a handler that blocks it (a synchronous SDK, a big parse, `Atomics.wait`, a busy
 * loop) stops; on one machine claim-owner.ts then sees that the owner still runs, but a
 * worker on another machine sees only the lease. So each process starts one Worker — once,
 * lazily, on its first claim on such a store — that renews the leases it is handed on its own
 * connection, whatever the main thread does. The main-thread heartbeat stays: it is the one
 * that learns when a claim is lost (fencing). A renewal the server refuses (the claim is
 * done, released or taken over) ends that lease's beats; a failed one is tried again.
 *
 * The worker's source is inline (a Blob URL), so it runs the same from `bun`, `dist/luma`
 * and `luma build` executables, and it uses only Bun's built-in clients. It is unref'd:
 * it never keeps the process alive, and when the process ends its leases simply stop being
 * renewed. It prints nothing: errors are retried at the next beat, and a worker that cannot
 * start leaves the main-thread heartbeat alone, as before.
 */

/** A statement argument: a value, or "now plus this many ms" taken at each beat. */
export type RenewArg = string | number | { nowPlus: number };

export interface OffThreadRenewal {
  kind: "postgres" | "redis";
  /** The server's URL (with its credentials: it stays in memory, never printed). */
  url: string;
  /** postgres: an UPDATE … RETURNING 1 (a row back: renewed); redis: a Lua script (1: renewed). */
  text: string;
  /** redis: the one key the script touches. */
  key?: string;
  args: RenewArg[];
  everyMs: number;
}

const WORKER_SOURCE = `
const conns = new Map();
const beats = new Map();
const connect = (kind, url) => {
  let c = conns.get(kind + " " + url);
  if (c === undefined) {
    c = kind === "postgres" ? new Bun.SQL({ url, max: 1, connectionTimeout: 10 }) : new Bun.RedisClient(url, { connectionTimeout: 10000, autoReconnect: true });
    conns.set(kind + " " + url, c);
  }
  return c;
};
const argsOf = (r) => r.args.map((a) => {
  const v = typeof a === "object" ? Date.now() + a.nowPlus : a;
  return r.kind === "redis" && typeof v === "number" ? String(Math.max(1, Math.ceil(v))) : v;
});
const beat = async (id, r) => {
  let held = true;
  try {
    const c = connect(r.kind, r.url);
    held = r.kind === "postgres" ? (await c.unsafe(r.text, argsOf(r))).length > 0 : (await c.send("EVAL", [r.text, "1", r.key, ...argsOf(r)])) === 1;
  } catch {}
  if (!beats.has(id)) return;
  if (held) beats.set(id, setTimeout(() => beat(id, r), r.everyMs));
  else beats.delete(id);
};
self.onmessage = (e) => {
  const m = e.data;
  if (m.op === "keep") beats.set(m.id, setTimeout(() => beat(m.id, m.renewal), m.renewal.everyMs));
  else {
    clearTimeout(beats.get(m.id));
    beats.delete(m.id);
  }
};
`;

let worker: Worker | null | undefined;
let lastId = 0;

const keeper = (): Worker | null => {
  if (worker !== undefined) return worker;
  try {
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    worker = new Worker(url);
    worker.addEventListener("error", (e) => e.preventDefault());
    worker.unref();
  } catch {
    worker = null; // no worker here: the main-thread heartbeat alone, as before
  }
  return worker;
};

/** Starts renewing one lease off the main thread; the answer stops it (idempotent). */
export const renewOffThread = (renewal: OffThreadRenewal): (() => void) => {
  const w = keeper();
  if (w === null) return () => {};
  const id = ++lastId;
  w.postMessage({ op: "keep", id, renewal });
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    w.postMessage({ op: "drop", id });
  };
};

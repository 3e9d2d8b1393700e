/**
 * Lease renewals that do not need the main thread, for the stores shared between machines
 * (postgres, redis: idempotency claims and the Postgres journal's run lease).
 *
 * The heartbeat (tools/steps/claim-heartbeat.ts, the run journal's timer) runs on the main thread,
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

/**
 * A statement argument: a value; `{ arg: i }`, the claim's i-th value; `{ nowPlusArg: i }`,
 * the time of the beat plus the claim's i-th value (ms); `{ now: true }`, the time of the beat.
 */
export type ArgSpec = string | number | { arg: number } | { nowPlusArg: number } | { now: true };

/** How one store renews a lease: sent to the worker once; each claim then sends its values. */
export interface RenewalTemplate {
  kind: "postgres" | "redis";
  /** The server's URL (with its credentials: it stays in memory, never printed). */
  url: string;
  /** postgres: an UPDATE … RETURNING 1 (a row back: renewed); redis: a Lua script (1: renewed). */
  text: string;
  /** redis: the one key the script touches. */
  key?: ArgSpec;
  args: ArgSpec[];
}

// Messages are kept to arrays and numbers (a claim: [template, id, everyMs, …values]; its
// end: the id), the cheapest for postMessage to copy: 1–5 µs per claim, keep and stop
// (bench/off-thread-renewal.ts), where an object carrying the statement cost 15–20 µs
// (measured, bun 1.4, this project's loaded 2-core machine).
const WORKER_SOURCE = `
const templates = new Map();
const conns = new Map();
const beats = new Map();
const connect = (t) => {
  let c = conns.get(t.kind + " " + t.url);
  if (c === undefined) {
    c = t.kind === "postgres" ? new Bun.SQL({ url: t.url, max: 1, connectionTimeout: 10 }) : new Bun.RedisClient(t.url, { connectionTimeout: 10000, autoReconnect: true });
    conns.set(t.kind + " " + t.url, c);
  }
  return c;
};
const valueOf = (spec, values, now) =>
  typeof spec !== "object" ? spec : "arg" in spec ? values[spec.arg] : "nowPlusArg" in spec ? now + values[spec.nowPlusArg] : now;
const beat = async (id, t, values, everyMs) => {
  let held = true;
  try {
    const now = Date.now();
    const args = t.args.map((a) => valueOf(a, values, now));
    const c = connect(t);
    if (t.kind === "postgres") held = (await c.unsafe(t.text, args)).length > 0;
    else {
      const texts = args.map((v) => (typeof v === "number" ? String(Math.max(1, Math.ceil(v))) : v));
      held = (await c.send("EVAL", [t.text, "1", valueOf(t.key, values, now), ...texts])) === 1;
    }
  } catch {}
  if (!beats.has(id)) return;
  if (held) beats.set(id, setTimeout(() => beat(id, t, values, everyMs), everyMs));
  else beats.delete(id);
};
self.onmessage = (e) => {
  const m = e.data;
  if (typeof m === "number") {
    clearTimeout(beats.get(m));
    beats.delete(m);
  } else if (Array.isArray(m)) {
    const [tpl, id, everyMs, ...values] = m;
    beats.set(id, setTimeout(() => beat(id, templates.get(tpl), values, everyMs), everyMs));
  } else {
    templates.set(m.tpl, m.template);
    // Connect now, not at the first beat: the beat must land inside the lease.
    const c = connect(m.template);
    Promise.resolve()
      .then(() => (m.template.kind === "postgres" ? c.unsafe("SELECT 1") : c.connect()))
      .catch(() => {});
  }
};
`;

let worker: Worker | null | undefined;
let lastId = 0;
let lastTemplate = 0;

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

/** One store's way of renewing leases off the main thread (its template is sent once). */
export class OffThreadRenewer {
  private tpl = 0;

  constructor(private readonly template: RenewalTemplate) {}

  /** Starts renewing one lease every `everyMs`; the answer stops it (idempotent). */
  keep(values: (string | number)[], everyMs: number): () => void {
    const w = keeper();
    if (w === null) return () => {};
    if (this.tpl === 0) {
      this.tpl = ++lastTemplate;
      w.postMessage({ tpl: this.tpl, template: this.template });
    }
    const id = ++lastId;
    w.postMessage([this.tpl, id, everyMs, ...values]);
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      w.postMessage(id);
    };
  }
}

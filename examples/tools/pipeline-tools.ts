// Tool handlers for the pipeline examples 020–029 (policies, retries, idempotency, circuit
// breaker, needs/tool_contexts, credentials, scopes, timeouts, error schemas).
// A handler gets the validated input, an AbortSignal and the tool's `needs`.
import { LumaToolError } from "luma";

/** How many times each handler ran for a given key, in this process. */
const runs = new Map<string, number>();
const count = (key: string): number => {
  const n = (runs.get(key) ?? 0) + 1;
  runs.set(key, n);
  return n;
};

/** Tools whose handler saw its AbortSignal fire (028). */
const aborted: string[] = [];

export const lumaTools = {
  // 020 deny_write
  read_note: (input: { id: string }) => ({ id: input.id, text: `the text of ${input.id}` }),
  save_note: (input: { id: string; text: string }) => ({ id: input.id, text: input.text }),

  // 021 approval
  read_post: (input: { id: string }) => ({ id: input.id, status: "draft" }),
  publish_post: (input: { id: string }) => ({ id: input.id, status: "published" }),
  delete_post: (input: { id: string }) => ({ id: input.id, status: "deleted" }),

  // 022 retries: busy twice, then an answer
  fetch_quote: (input: { symbol: string }) => {
    const attempt = count(`quote:${input.symbol}`);
    if (attempt < 3) {
      throw new LumaToolError({ code: "UPSTREAM_BUSY", message: "quote service busy", retryable: true, details: { attempt } });
    }
    return { symbol: input.symbol, price: 42.5, attempts: attempt };
  },
  fetch_rate: (input: { symbol: string }) => {
    const attempt = count(`rate:${input.symbol}`);
    throw new LumaToolError({ code: "UNKNOWN_SYMBOL", message: `no rate for ${input.symbol}`, retryable: false, details: { attempt } });
  },
  fetch_flaky: (input: { symbol: string }) => {
    const attempt = count(`flaky:${input.symbol}`);
    throw new LumaToolError({ code: "UPSTREAM_BUSY", message: "still busy", retryable: true, details: { attempt } });
  },

  // 023 idempotency: a deterministic result, so a replay from the file store looks the same
  charge_card: (input: { payment_id: string; amount: number }) => ({
    payment_id: input.payment_id,
    amount: input.amount,
    status: "charged",
  }),

  // 024 circuit breaker
  read_sensor: (input: { sensor: string }) => {
    if (input.sensor.startsWith("broken")) {
      throw new LumaToolError({ code: "SENSOR_OFFLINE", message: `sensor ${input.sensor} is offline`, retryable: true });
    }
    return { sensor: input.sensor, value: 21.5 };
  },
  read_backup: (input: { sensor: string }) => ({ sensor: input.sensor, value: 20 }),

  // 025 needs: the context arrives as the third parameter; the password is there, unpublished
  find_row: (input: { id: number }, _signal: AbortSignal, needs: { db: { user: string; port: number; tls: boolean; password?: string } }) => ({
    id: input.id,
    owner: needs.db.user,
    port: needs.db.port,
    tls: needs.db.tls,
    has_password: typeof needs.db.password === "string",
  }),
  cache_get: (input: { key: string }, _signal: AbortSignal, needs: { cache: { url: string } }) => ({
    id: 0,
    owner: `${input.key}@${needs.cache.url}`,
    port: 0,
    tls: false,
    has_password: false,
  }),

  // 026 credentials: the runtime checks the variable is set; the handler reads it itself
  forecast: (input: { city: string }) => ({ city: input.city, summary: process.env.WEATHER_API_KEY ? "sunny" : "no key" }),
  send_sms: (input: { to: string }) => ({ city: input.to, summary: "sent" }),

  // 027 scopes
  query_table: (input: { table: string }) => ({ table: input.table, ok: true }),
  update_table: (input: { table: string }) => ({ table: input.table, ok: true }),

  // 028 timeouts: a slow page waits until its signal aborts, as a real fetch would
  fetch_page: (input: { url: string }, signal: AbortSignal) => {
    if (!input.url.includes("slow")) return { url: input.url, bytes: input.url.length * 100 };
    return new Promise((_resolve, reject) => {
      signal.addEventListener("abort", () => {
        aborted.push(input.url);
        reject(signal.reason);
      });
    });
  },
  abort_log: () => ({ aborted: [...aborted] }),

  // 029 error schema
  ship_order: (input: { order_id: string }) => {
    if (input.order_id === "o-2") {
      throw new LumaToolError({ code: "OUT_OF_STOCK", message: "item o-2 is out of stock", retryable: false, details: { order_id: "o-2" } });
    }
    if (input.order_id === "o-3") {
      throw new LumaToolError({ code: "WAREHOUSE_ON_FIRE", message: "an error the schema does not allow", retryable: false });
    }
    if (input.order_id === "o-4") throw new Error("label printer jammed");
    return { order_id: input.order_id, status: "shipped" };
  },
};

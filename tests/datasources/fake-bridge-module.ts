/**
 * The text of a tool module whose `Warehouse` bridge acts on the SQL it is given, so each
 * test picks the bridge's behaviour in its Luma source. It records every call (sql, params,
 * whether the signal aborted) in `globalThis[key]` for the test to read back.
 */
export const fakeBridgeModule = (key: string): string => `
import { LumaToolError } from "luma";
const calls = (globalThis[${JSON.stringify(key)}] ??= []);
export const datasources = {
  Warehouse: async (sql, params, signal) => {
    const call = { sql, params, aborted: false, hadSignal: signal instanceof AbortSignal };
    calls.push(call);
    signal?.addEventListener("abort", () => (call.aborted = true));
    switch (sql) {
      case "ECHO": return [{ sql, params: JSON.stringify(params) }];
      case "TWO": return [{ id: 1, name: "Ada" }, { id: 2, name: "Bob", tier: "gold" }];
      case "NONE": return [];
      case "BAD_ENUM": return [{ id: 1, name: "Ada" }, { id: 2, name: "Bob", tier: "platinum" }];
      case "BAD_TYPE": return [{ id: "seven", name: "Ada" }];
      case "NOT_OBJECT": return [42];
      case "NOT_ARRAY": return "rows";
      case "OBJECT": return { rows: [] };
      case "NULLS": return [{ id: 1, name: "Ada", tier: null }];
      case "NULL_NAME": return [{ id: 1, name: null }];
      case "DRIVER_TYPES": return [{ id: 5n, name: "Ada", at: new Date(0) }];
      case "SOFT": return [{ id: 1, name: "Ada", score: 20 }];
      case "THROW": throw new Error("relation \\"customers\\" does not exist");
      case "THROW_URL": throw new Error("could not connect to postgres://admin:hunter2@db.internal:5432/shop");
      case "TYPED": throw new LumaToolError({ code: "DB_BUSY", message: "database is busy", retryable: true, details: { wait_ms: 50 } });
      case "HANG": return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("cancelled"))));
      default: throw new Error("unknown fake statement " + sql);
    }
  },
};
`;

/** The calls the fake bridge recorded under `key`. */
export const recordedCalls = (key: string): { sql: string; params: unknown[]; aborted: boolean; hadSignal: boolean }[] =>
  ((globalThis as Record<string, unknown>)[key] as never) ?? [];

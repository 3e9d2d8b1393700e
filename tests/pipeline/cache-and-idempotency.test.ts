/** Spec §9 steps 8–9 (and their writes in step 12): cache + single-flight, idempotency (§11 memory store). */
import { describe, expect, test } from "bun:test";
import { LumaToolError } from "../../src/luma-module";
import { deferred, failure, harness, settle } from "./harness";

const SOURCE = `
schema R { result: float  label?: string @default("x") }
tool calc(a: float, b: float, opts?: any) -> R { cache: true }
tool plain(a: float) -> R {}
tool db_write(request_id: string, value: string) -> R {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  idempotency_ttl_ms: 1000
}
tool db_write2(request_id: string, value: string) -> R {
  side_effects: "write"
  idempotent: true
  idempotency_key: input.request_id
}
`;

describe("§9 step 8 cache / single-flight", () => {
  test("the same input (key order irrelevant) runs once; the second call is a cache_hit with the validated output", async () => {
    let runs = 0;
    const h = harness(SOURCE, { handlers: { calc: (i: any) => (runs++, { result: i.a + i.b }) } });
    const first = await h.call("calc", { a: 1, b: 2, opts: { x: 1, y: 2 } });
    const second = await h.call("calc", { opts: { y: 2, x: 1 }, b: 2, a: 1 });
    expect(runs).toBe(1);
    expect(first).toEqual({ result: 3, label: "x" });
    expect(second).toEqual(first);
    expect(h.events.map((e) => e.cache_hit)).toEqual([false, true]);
  });

  test("different inputs are different keys", async () => {
    let runs = 0;
    const h = harness(SOURCE, { handlers: { calc: (i: any) => (runs++, { result: i.a + i.b }) } });
    await h.call("calc", { a: 1, b: 2 });
    await h.call("calc", { a: 2, b: 1 });
    expect(runs).toBe(2);
  });

  test("concurrent identical calls share one execution; joiners are traced single_flight: true", async () => {
    const gate = deferred<{ result: number }>();
    let runs = 0;
    const h = harness(SOURCE, { handlers: { calc: () => (runs++, gate.promise) } });
    const calls = [1, 2, 3].map(() => h.call("calc", { a: 1, b: 2 }));
    await settle();
    gate.resolve({ result: 3 });
    expect(await Promise.all(calls)).toEqual([1, 2, 3].map(() => ({ result: 3, label: "x" })));
    expect(runs).toBe(1);
    expect(h.events.map((e) => e.single_flight).sort()).toEqual([false, true, true]);
  });

  test("an error reaches every waiter and is not cached: the next call runs again", async () => {
    const gate = deferred<never>();
    let runs = 0;
    let fail = true;
    const h = harness(SOURCE, {
      handlers: { calc: () => (runs++, fail ? gate.promise : { result: 9 }) },
    });
    const calls = [1, 2, 3].map(() => failure(h.call("calc", { a: 1, b: 2 })));
    await settle();
    gate.reject(new LumaToolError({ code: "UPSTREAM", message: "upstream down" }));
    const errors = await Promise.all(calls);
    expect(errors.map((e) => e.code)).toEqual(["UPSTREAM", "UPSTREAM", "UPSTREAM"]);
    expect(runs).toBe(1);
    fail = false;
    expect(await h.call("calc", { a: 1, b: 2 })).toEqual({ result: 9, label: "x" });
    expect(runs).toBe(2);
  });

  test("a tool without cache: true runs every time", async () => {
    let runs = 0;
    const h = harness(SOURCE, { handlers: { plain: (i: any) => (runs++, { result: i.a }) } });
    await h.call("plain", { a: 1 });
    await h.call("plain", { a: 1 });
    expect(runs).toBe(2);
  });
});

describe("§9 step 9 idempotency", () => {
  const writer = () => {
    const seen: unknown[] = [];
    return { seen, handlers: { db_write: (i: any) => (seen.push(i.value), { result: seen.length }), db_write2: (i: any) => (seen.push(i.value), { result: seen.length }) } };
  };

  test("same key + same input: the handler runs once and the second call gets the stored result (idempotent_replay)", async () => {
    const { seen, handlers } = writer();
    const h = harness(SOURCE, { handlers });
    const a = await h.call("db_write", { request_id: "r-1", value: "v" });
    const b = await h.call("db_write", { value: "v", request_id: "r-1" });
    expect(seen).toEqual(["v"]);
    expect(b).toEqual(a);
    expect(h.events.map((e) => e.idempotent_replay)).toEqual([false, true]);
    expect(h.events[1].attempts).toBe(0);
  });

  test("same key + different input: TOOL_IDEMPOTENCY_CONFLICT, handler not run", async () => {
    const { seen, handlers } = writer();
    const h = harness(SOURCE, { handlers });
    await h.call("db_write", { request_id: "r-1", value: "v" });
    const e = await failure(h.call("db_write", { request_id: "r-1", value: "other" }));
    expect(e.code).toBe("TOOL_IDEMPOTENCY_CONFLICT");
    expect(e.message).not.toContain("other");
    expect(seen).toEqual(["v"]);
  });

  test("after idempotency_ttl_ms the record is dropped and the tool runs again (injected clock)", async () => {
    const { seen, handlers } = writer();
    const h = harness(SOURCE, { handlers });
    await h.call("db_write", { request_id: "r-1", value: "v" });
    h.clock.advance(999);
    await h.call("db_write", { request_id: "r-1", value: "v" });
    expect(seen).toEqual(["v"]);
    h.clock.advance(1);
    await h.call("db_write", { request_id: "r-1", value: "other" });
    expect(seen).toEqual(["v", "other"]);
  });

  test("the default TTL is 300000 ms", async () => {
    const { seen, handlers } = writer();
    const h = harness(SOURCE, { handlers });
    await h.call("db_write2", { request_id: "r", value: "v" });
    h.clock.advance(299_999);
    await h.call("db_write2", { request_id: "r", value: "v" });
    h.clock.advance(1);
    await h.call("db_write2", { request_id: "r", value: "v" });
    expect(seen).toEqual(["v", "v"]);
  });

  test("in flight: a second caller with the same key waits for the first; the handler never runs twice", async () => {
    const gate = deferred<{ result: number }>();
    let runs = 0;
    const h = harness(SOURCE, { handlers: { db_write: () => (runs++, gate.promise) } });
    const first = h.call("db_write", { request_id: "r-1", value: "v" });
    const second = h.call("db_write", { request_id: "r-1", value: "v" });
    await settle();
    expect(runs).toBe(1);
    gate.resolve({ result: 7 });
    expect(await Promise.all([first, second])).toEqual([
      { result: 7, label: "x" },
      { result: 7, label: "x" },
    ]);
    expect(runs).toBe(1);
    expect(h.events.map((e) => e.idempotent_replay).sort()).toEqual([false, true]);
  });

  test("in flight with a different input: TOOL_IDEMPOTENCY_CONFLICT at once", async () => {
    const gate = deferred<{ result: number }>();
    const h = harness(SOURCE, { handlers: { db_write: () => gate.promise } });
    const first = h.call("db_write", { request_id: "r-1", value: "v" });
    expect((await failure(h.call("db_write", { request_id: "r-1", value: "w" }))).code).toBe("TOOL_IDEMPOTENCY_CONFLICT");
    gate.resolve({ result: 1 });
    await first;
  });

  test("a failed call stores nothing: the same key runs again", async () => {
    let runs = 0;
    const h = harness(SOURCE, {
      handlers: {
        db_write: () => {
          if (++runs === 1) throw new Error("disk full");
          return { result: runs };
        },
      },
    });
    expect((await failure(h.call("db_write", { request_id: "r-1", value: "v" }))).code).toBe("TOOL_HANDLER_ERROR");
    expect(await h.call("db_write", { request_id: "r-1", value: "v" })).toEqual({ result: 2, label: "x" });
  });

  test("idempotency_key as input.request_id reads the same field", async () => {
    const { seen, handlers } = writer();
    const h = harness(SOURCE, { handlers });
    await h.call("db_write2", { request_id: "k", value: "v" });
    await h.call("db_write2", { request_id: "k", value: "v" });
    expect(seen).toEqual(["v"]);
    expect((await failure(h.call("db_write2", { request_id: "k", value: "w" }))).code).toBe("TOOL_IDEMPOTENCY_CONFLICT");
  });

  test("keys are per tool", async () => {
    const { seen, handlers } = writer();
    const h = harness(SOURCE, { handlers });
    await h.call("db_write", { request_id: "k", value: "v" });
    await h.call("db_write2", { request_id: "k", value: "w" });
    expect(seen).toEqual(["v", "w"]);
  });
});

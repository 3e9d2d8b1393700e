import { describe, expect, test } from "bun:test";
import { buildRegistry, readModuleTools } from "../../src/runtime/tools/registry";
import { limitCalls, Semaphore } from "../../src/runtime/module-policy";
import { programDeclaring } from "../registry/program-fixture";
import { loadModule, project } from "./strict-project";

/** A module whose handlers record how many calls are inside it at once; `release()` lets them finish. */
const GATED = `
let inside = 0, peak = 0; const waiting = [];
const gated = async () => { inside++; peak = Math.max(peak, inside); await new Promise((r) => waiting.push(r)); inside--; return { peak }; };
module.exports = { a: gated, b: gated, peak: () => peak, release: () => { waiting.splice(0).forEach((r) => r()); return waiting.length; } };
`;

const ticks = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

/** The registry (handlers behind the semaphore) and the module's raw exports (for the test's own calls). */
async function registryFor(block: object | null, maxConcurrency?: number) {
  const dir = project({ "m.cjs": GATED });
  const module = await loadModule(dir, "m.cjs", block as never);
  const registry = buildRegistry({ program: programDeclaring(["a", "b"]), modules: [module], maxConcurrency });
  return { registry, raw: readModuleTools(module).handlers };
}

async function peakOf({ registry, raw }: Awaited<ReturnType<typeof registryFor>>, calls: number): Promise<number> {
  const a = registry.handler("a")!;
  const b = registry.handler("b")!;
  const release = raw.get("release")!;
  const pending = Array.from({ length: calls }, (_, i) => (i % 2 ? b : a)({}));
  // Let each admitted call finish, one wave at a time, until all have.
  let done = false;
  const all = Promise.all(pending).then(() => (done = true));
  while (!done) {
    await ticks();
    await release({});
    await ticks();
  }
  await all;
  return raw.get("peak")!({}) as number;
}

describe("§10 max_concurrency: a per-module semaphore over handlers (default 1 under a policy block)", () => {
  test("default 1: calls into one module never overlap, across its tools", async () => {
    const registry = await registryFor({ sandbox: "strict" }, 1);
    expect(await peakOf(registry, 6)).toBe(1);
  });

  test("max_concurrency 2: at most two at a time", async () => {
    const registry = await registryFor({ sandbox: "strict", max_concurrency: 2 }, 2);
    expect(await peakOf(registry, 6)).toBe(2);
  });

  test("no policy block: no limit", async () => {
    const registry = await registryFor(null, undefined);
    expect(await peakOf(registry, 6)).toBe(6);
  });

  test("the wrapped handler always asks the pipeline for a signal (length 1 becomes 2), so a timed-out wait can leave the queue", async () => {
    const one = limitCalls((input: unknown) => input, new Semaphore(1));
    const none = limitCalls(() => 1, new Semaphore(1));
    const three = limitCalls((_i: unknown, _s: unknown, _n: unknown) => 1, new Semaphore(1));
    expect([one.length, none.length, three.length]).toEqual([2, 0, 3]);
  });

  test("a free slot calls a plain handler synchronously (the pipeline's fast path)", () => {
    const limited = limitCalls(() => 42, new Semaphore(1));
    expect(limited()).toBe(42);
  });

  test("a waiting call whose signal aborts leaves the queue without running", async () => {
    const semaphore = new Semaphore(1);
    let ran = 0;
    let finish!: () => void;
    const slow = limitCalls((_i: unknown, _s?: AbortSignal) => new Promise<void>((r) => (finish = r)), semaphore);
    const counted = limitCalls((_i: unknown, _s?: AbortSignal) => void ran++, semaphore);
    const first = slow({});
    const controller = new AbortController();
    const waiting = counted({}, controller.signal) as unknown as Promise<unknown>;
    controller.abort(new Error("timed out"));
    await expect(waiting).rejects.toThrow("timed out");
    finish();
    await first;
    expect(ran).toBe(0);
    expect(semaphore.inUse).toBe(0);
  });

  test("a throwing handler releases its slot", async () => {
    const semaphore = new Semaphore(1);
    const bad = limitCalls(() => {
      throw new Error("x");
    }, semaphore);
    expect(() => bad()).toThrow("x");
    expect(semaphore.inUse).toBe(0);
  });
});

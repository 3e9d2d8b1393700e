/**
 * Step 8 — cache / single-flight lookup, and (on the way back) the cache write of step 12.
 *
 * Key: tool name + canonical JSON of the validated input. A finished result is kept for the
 * life of the invoker. A call whose key is already running joins that execution instead of
 * starting its own (`single_flight` in the trace); if it fails, every joiner gets the same
 * error and nothing is cached, so the next call runs again. The cached value is the
 * validated output (steps 9–11 run inside this one). Programs may write into the values
 * they hold (`r.status = …`), so every caller gets its own copy: a cached or shared result
 * is never the object another caller holds.
 *
 * A chain that answers synchronously (a plain-value handler) is cached at once and never
 * registered as running: nothing can join a call that finished before `next` returned.
 */
import { inputFingerprintOf } from "./input-fingerprint";
import { isThenable, type StepFactory } from "./step";

export const cacheSingleFlight: StepFactory = () => {
  const results = new Map<string, unknown>();
  const running = new Map<string, Promise<unknown>>();

  return {
    name: "8 cache / single-flight",
    applies: (plan) => plan.tool.options.cache,
    run(ctx, next) {
      const tool = ctx.plan.tool;
      // The fingerprint writes the same text as canonicalJson, faster, and step 9 reuses it (input-fingerprint.ts).
      const key = tool.name + "\u0000" + inputFingerprintOf(ctx);
      const hit = results.get(key);
      if (hit !== undefined || results.has(key)) {
        ctx.cacheHit = true;
        return (ctx.output = structuredClone(hit));
      }
      const shared = running.get(key);
      if (shared !== undefined) {
        ctx.singleFlight = true;
        return shared.then((v) => (ctx.output = structuredClone(v)));
      }
      const r = next(ctx); // a synchronous throw propagates: nothing is cached or running
      if (!isThenable(r)) {
        results.set(key, structuredClone(r));
        return r;
      }
      const execution = Promise.resolve(r);
      running.set(key, execution);
      return execution.then(
        (v) => {
          running.delete(key);
          results.set(key, structuredClone(v));
          return v;
        },
        (e) => {
          running.delete(key);
          throw e;
        },
      );
    },
  };
};

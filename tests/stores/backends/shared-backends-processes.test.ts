/**
 * Spec §11 (extension) / issue 7: the shared backends across real processes, against the
 * real servers. For sqlite, postgres and redis alike:
 *   - 4 `luma` processes × many calls over overlapping keys: each key's handler runs exactly
 *     once (counted in a side-effect log outside the store), and every process gets its result;
 *   - a worker killed with -9 mid-handler keeps its key claimed (a second worker waits, then
 *     gets a clear conflict — never a second run) until the lease (in-progress expiry) passes;
 *     after that the key is free again, long before the TTL.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../../src/runtime/base/clock";
import { underCi } from "../conformance/service-urls";
import { STORE_BACKENDS } from "../conformance/store-backends";
import { makeStoreProject, type SharedBackend } from "../support/store-project";
import { startStoreWorker } from "../support/store-worker-process";

const BACKENDS: SharedBackend[] = ["sqlite", "postgres", "redis"];

/** Each process walks the keys from a different place, and calls some twice. */
const ordersFor = (keys: string[]) => (p: number) => {
  const rotated = [...keys.slice(p * 7), ...keys.slice(0, p * 7)];
  return [...rotated, ...rotated.slice(0, 5)];
};

/** Resolves once `file` holds `text` (the killed handler has started). */
const waitForText = async (file: string, text: string): Promise<void> => {
  for (let pause = 5; !(existsSync(file) && readFileSync(file, "utf8").includes(text)); pause = Math.min(pause * 2, 50)) await Bun.sleep(pause);
};

for (const name of BACKENDS) {
  const backend = STORE_BACKENDS.find((b) => b.name === name)!;
  const reason = backend.unavailable();
  const run = reason === undefined ? test : underCi() ? test : test.skip;
  const label = (t: string) => (reason && !underCi() ? `${t} (skipped: ${reason})` : t);
  const guard = () => {
    if (reason) throw new Error(`${name}: ${reason}`);
  };

  describe(`§11 ${name} store: worker processes`, () => {
    for (const encrypted of [false, true]) {
      run(label(`4 processes × overlapping keys: each key's handler runs exactly once${encrypted ? " (encrypted store)" : ""}`), async () => {
        guard();
        const keys = Array.from({ length: 30 }, (_, i) => `req-${String(i).padStart(2, "0")}`);
        const project = await makeStoreProject(name, { encrypted });
        try {
          const runs = await Promise.all([0, 1, 2, 3].map((p) => project.run(ordersFor(keys)(p), { HANDLER_MS: "2" })));
          for (const r of runs) expect(r).toEqual({ exitCode: 0, stdout: "done\n", stderr: "" });
          const effects = project.effects();
          expect([...effects.keys()].sort()).toEqual(keys);
          expect([...effects.values()].every((n) => n === 1)).toBe(true);
          // A fifth process later: every key replays, nothing runs again.
          expect(await project.run(keys.slice(0, 10))).toEqual({ exitCode: 0, stdout: "done\n", stderr: "" });
          expect([...project.effects().values()].every((n) => n === 1)).toBe(true);
        } finally {
          await project.cleanup();
        }
      }, 60_000);
    }

    run(label("a luma process killed with -9 mid-handler: a second process never runs the key; it waits, then gets a clear conflict"), async () => {
      guard();
      const key = "killed-mid-call";
      const project = await makeStoreProject(name, { timeoutMs: 1500 });
      try {
        const first = project.start([key], { HANDLER_MS: "60000" });
        await waitForText(project.effectsLog, key);
        first.kill9();
        expect((await first.done).exitCode).toBeNull();
        const second = await project.run([key]);
        expect(second.exitCode).toBe(1);
        expect(second.stderr).toContain(
          "Error: [TOOL_IDEMPOTENCY_CONFLICT] Tool 'db_write': a call with the same idempotency key (request_id) was still running after 1500 ms.",
        );
        expect(project.effects().get(key)).toBe(1);
      } finally {
        await project.cleanup();
      }
    }, 30_000);

    run(label("a worker killed with -9 mid-handler releases its key after the lease (in-progress expiry), not the TTL"), async () => {
      guard();
      const place = backend.newPlace();
      const effectsLog = join(mkdtempSync(join(tmpdir(), "luma-kill-")), "effects.log");
      const worker = await startStoreWorker(name, place, { EFFECTS_LOG: effectsLog });
      const store = await backend.open(place, { clock: systemClock });
      try {
        // TTL 60 s; lease 600 ms: the dead worker's claim must end with the lease.
        expect(await worker.send({ op: "run", key: "k", leaseMs: 600 })).toEqual({ running: true });
        await worker.kill9();
        const waiting = await store.claim({ key: "k", fingerprint: "fp", ttlMs: 60_000, leaseMs: 30_000 });
        expect(waiting.kind).toBe("running"); // not released at once: only the lease frees it
        if (waiting.kind === "running") await waiting.settled;
        const taken = await store.claim({ key: "k", fingerprint: "fp", ttlMs: 60_000, leaseMs: 30_000 });
        expect(taken.kind).toBe("claimed");
        if (taken.kind === "claimed") await store.complete("k", taken.token, "second worker", 60_000);
        expect(await store.claim({ key: "k", fingerprint: "fp", ttlMs: 60_000, leaseMs: 30_000 })).toEqual({ kind: "done", value: "second worker" });
        expect(readFileSync(effectsLog, "utf8").trim().split("\n").length).toBe(1);
      } finally {
        await store.close?.();
        await backend.dropPlace(place);
      }
    }, 30_000);
  });
}

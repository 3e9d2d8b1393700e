/**
 * Spec §11 / issue 3 reliability: 4 real `luma` processes × many calls over overlapping keys
 * against one file store. Each key's handler runs exactly once, counted in a side-effect log
 * outside the store, and every process gets each key's result.
 */
import { describe, expect, test } from "bun:test";
import { systemClock } from "../../src/runtime/base/clock";
import { FileIdempotencyStore } from "../../src/runtime/stores/file/file-idempotency-store";
import { makeStoreProject, PASSPHRASE } from "./support/store-project";

const KEYS = Array.from({ length: 30 }, (_, i) => `req-${String(i).padStart(2, "0")}`);
/** Each process walks the keys from a different place, and calls some twice. */
const orderFor = (p: number) => {
  const rotated = [...KEYS.slice(p * 7), ...KEYS.slice(0, p * 7)];
  return [...rotated, ...rotated.slice(0, 5)];
};

describe("§11 file store: 4 processes, overlapping keys", () => {
  for (const encrypted of [false, true]) {
    test.concurrent(`each key's handler runs exactly once${encrypted ? " (encrypted store)" : ""}`, async () => {
      const project = await makeStoreProject("file", { encrypted });
      const runs = await Promise.all([0, 1, 2, 3].map((p) => project.run(orderFor(p), { HANDLER_MS: "2" })));
      for (const r of runs) expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({ exitCode: 0, stdout: "done\n", stderr: "" });
      const effects = project.effects();
      expect([...effects.keys()].sort()).toEqual(KEYS);
      expect([...effects.values()].every((n) => n === 1)).toBe(true);
      const store = FileIdempotencyStore.open({
        path: project.storePath!,
        clock: systemClock,
        ...(encrypted ? { encryption: "aes-256-gcm" as const, passphrase: PASSPHRASE } : {}),
      });
      expect([...store.snapshot().keys()].length).toBe(KEYS.length);
      store.close();
    });
  }
});

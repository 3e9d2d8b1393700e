/**
 * A second process for the file store tests: `bun store-worker.ts <store path>` reads one
 * JSON command per stdin line and answers each with one JSON line on stdout.
 *
 *   {"op":"claim","key":"k","fp":"…","leaseMs":30000}  → {"kind":"claimed"|"running"|"done"|"conflict"}
 *   {"op":"complete","key":"k","value":…}              → {"ok":true}
 *   {"op":"release","key":"k"}                          → {"ok":true}
 *   {"op":"hold-lock"}                                  → {"locked":true, "pid":…}, then blocks holding the lock
 *
 * The tests kill it (SIGKILL) to play a dead owner, or keep it alive to play a live one.
 */
import { systemClock } from "../../../src/runtime/base/clock";
import { FileIdempotencyStore } from "../../../src/runtime/stores/file/file-idempotency-store";
import type { ClaimToken } from "../../../src/runtime/stores/idempotency-store";

const path = process.argv[2];
const store = FileIdempotencyStore.open({
  path,
  clock: systemClock,
  encryption: process.env.LUMA_IDEMPOTENCY_KEY ? "aes-256-gcm" : undefined,
  passphrase: process.env.LUMA_IDEMPOTENCY_KEY,
});
const tokens = new Map<string, ClaimToken>();
const say = (o: object) => process.stdout.write(JSON.stringify(o) + "\n");

say({ ready: true, pid: process.pid });
for await (const line of console) {
  if (line.trim() === "") continue;
  const cmd = JSON.parse(line);
  if (cmd.op === "claim") {
    const c = store.claim({ key: cmd.key, fingerprint: cmd.fp ?? "fp", ttlMs: 60_000, leaseMs: cmd.leaseMs ?? 30_000 });
    if (c.kind === "claimed") tokens.set(cmd.key, c.token);
    say({ kind: c.kind });
  } else if (cmd.op === "complete") {
    store.complete(cmd.key, tokens.get(cmd.key)!, cmd.value, 60_000);
    say({ ok: true });
  } else if (cmd.op === "release") {
    store.release(cmd.key, tokens.get(cmd.key)!);
    say({ ok: true });
  } else if (cmd.op === "hold-lock") {
    (store as unknown as { lock: { with(f: () => void): void } }).lock.with(() => {
      say({ locked: true, pid: process.pid });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    });
  }
}

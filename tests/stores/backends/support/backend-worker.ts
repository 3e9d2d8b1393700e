/**
 * A worker process for the shared-backend tests: `bun backend-worker.ts <backend> <place>`
 * opens the store (sqlite file, postgres table or redis key prefix) and answers one JSON
 * command per stdin line with one JSON line on stdout, like tests/stores/support/store-worker.ts.
 *
 *   {"op":"claim","key":"k","fp":"…","leaseMs":400}  → {"kind":"claimed"|"running"|"done"|"conflict"}
 *   {"op":"complete","key":"k","value":…}             → {"ok":true}
 *   {"op":"run","key":"k","leaseMs":400}              → claims, appends "<pid> <key>" to $EFFECTS_LOG,
 *                                                        answers {"running":true}, then never finishes
 *                                                        (a handler the test kills mid-call)
 */
import { appendFileSync } from "node:fs";
import { systemClock } from "../../../../src/runtime/base/clock";
import type { ClaimToken } from "../../../../src/runtime/stores/idempotency-store";
import { STORE_BACKENDS } from "../../conformance/store-backends";

const [backendName, place] = process.argv.slice(2);
const backend = STORE_BACKENDS.find((b) => b.name === backendName)!;
const store = await backend.open(place, { clock: systemClock });
const tokens = new Map<string, ClaimToken>();
const say = (o: object) => process.stdout.write(JSON.stringify(o) + "\n");

say({ ready: true, pid: process.pid });
for await (const line of console) {
  const cmd = JSON.parse(line);
  if (cmd.op === "claim" || cmd.op === "run") {
    const c = await store.claim({ key: cmd.key, fingerprint: cmd.fp ?? "fp", ttlMs: 60_000, leaseMs: cmd.leaseMs ?? 30_000 });
    if (c.kind === "claimed") tokens.set(cmd.key, c.token);
    if (cmd.op === "claim") say({ kind: c.kind });
    else if (c.kind === "claimed") {
      appendFileSync(process.env.EFFECTS_LOG!, `${process.pid} ${cmd.key}\n`);
      say({ running: true });
      await new Promise(() => {}); // the handler hangs until the test kills the process
    } else say({ kind: c.kind });
  } else if (cmd.op === "complete") {
    await store.complete(cmd.key, tokens.get(cmd.key)!, cmd.value, 60_000);
    say({ ok: true });
  }
}

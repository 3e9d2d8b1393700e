/**
 * Hardening round 3, item 3: what the off-thread lease renewal (src/runtime/stores/
 * off-thread-renewal.ts) adds to each claim on a store shared between machines (postgres,
 * redis): handing the claim to the renewal worker and taking it back (two postMessage
 * calls), per claim, and the one-time start of the worker on a process's first claim. No
 * server is needed: nothing beats within the measured window (the beat interval is a third
 * of a 40 s lease), so this is the cost on the hot path alone.
 */
import { OffThreadRenewer } from "../src/runtime/stores/off-thread-renewal";
import { fmt, median } from "./measure";

const CLAIMS = 100_000;

export async function benchOffThreadRenewal(): Promise<void> {
  const renewer = new OffThreadRenewer({
    kind: "postgres",
    url: "postgres://bench@127.0.0.1:1/none",
    text: "UPDATE luma_idempotency SET live_until = $3 WHERE kd = $1 AND token = $2 AND NOT done AND live_until > $4 RETURNING 1",
    args: [{ arg: 0 }, { arg: 1 }, { nowPlusArg: 2 }, { now: true }],
  });
  const kd = "k".repeat(43);
  const token = "t".repeat(90); // a claim token with its owner stamp (claim-owner.ts)
  const startedAt = performance.now();
  renewer.keep([kd, token, 40_000], 13_333)(); // the first claim starts the worker
  const startMs = performance.now() - startedAt;
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let i = 0; i < CLAIMS; i++) renewer.keep([kd, token, 40_000], 13_333)();
    rounds.push(((performance.now() - t0) * 1000) / CLAIMS);
  }
  console.log("off-thread lease renewal (postgres / redis claims, the Postgres journal's run lease)");
  console.log(`  per claim (hand over + take back): ${fmt(median(rounds), 2)} µs (median of 5 × ${CLAIMS / 1000}k)`);
  console.log(`  first claim of a process (starts the worker): ${fmt(startMs, 1)} ms`);
  console.log("");
}

if (import.meta.main) await benchOffThreadRenewal();

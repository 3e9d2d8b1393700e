/**
 * Issue #15 figure: the per-step cost of a journal (SQLite, `synchronous = FULL`: a begin
 * and a finish receipt, each an fsynced commit) against the same tool calls without one,
 * and against the file idempotency store's per-call cost (claim + durable record) — the
 * target is journal overhead ≤ 2× the file store's. All in one run, rounds interleaved,
 * each keeping its best round.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../src/syntax/parse";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { systemClock } from "../src/runtime/base/clock";
import { FileIdempotencyStore } from "../src/runtime/stores/file/file-idempotency-store";
import { RecordCodec } from "../src/runtime/stores/record-codec";
import { SqliteJournal } from "../src/runtime/journal/sqlite-journal";
import { JournalCodec } from "../src/runtime/journal/journal-codec";
import { RunJournal } from "../src/runtime/journal/run-journal";

const SOURCE = `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
}
tool db_write_idem(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  idempotency_ttl_ms: 1
}
`;
const ROUNDS = 5;
const CALLS = 100;

export async function benchJournalOverhead(): Promise<{ plainUs: number; journalUs: number; storeUs: number }> {
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-journal-"));
  const program = parse(SOURCE, "bench.luma").program!;
  const schemas = createSchemaTable(program);
  const registry = { handler: () => (i: { request_id: string; value: string }) => ({ id: i.request_id, value: i.value }) };
  const base = { program, schemas, registry, config: {}, env: {}, warn: () => {} };

  const backend = SqliteJournal.open(join(dir, "journal.sqlite"), "journal.sqlite");
  const journal = await RunJournal.start(backend, new JournalCodec(new RecordCodec(undefined, "journal.sqlite"), "journal.sqlite"), { runId: "bench", program: "bench.luma" });
  const store = FileIdempotencyStore.open({ path: join(dir, "idem.json"), clock: systemClock });
  const plain = createToolInvoker(base);
  const journaled = createToolInvoker({ ...base, journal });
  const stored = createToolInvoker({ ...base, idempotencyStore: store });

  let k = 0;
  const input = () => {
    const id = `call-${String(k++).padStart(6, "0")}`;
    return { request_id: id, value: `value-${id}` };
  };
  // Every call has a step id (as in a program); only the journaled invoker records it.
  const loops = {
    plain: () => plain.call({ tool: "db_write", input: input(), mode: "direct", stepId: `main/${k}` }),
    journal: () => journaled.call({ tool: "db_write", input: input(), mode: "direct", stepId: `main/${k}` }),
    store: () => stored.call({ tool: "db_write_idem", input: input(), mode: "direct", stepId: `main/${k}` }),
  };
  const best = { plain: Infinity, journal: Infinity, store: Infinity };
  for (const f of Object.values(loops)) await f();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, f] of Object.entries(loops) as [keyof typeof loops, () => Promise<unknown>][]) {
      const t = performance.now();
      for (let i = 0; i < CALLS; i++) await f();
      best[name] = Math.min(best[name], ((performance.now() - t) / CALLS) * 1000);
    }
  }
  await journal.end("finished");
  backend.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
  const journalUs = best.journal - best.plain;
  const storeUs = best.store - best.plain;
  console.log("journal (durable runs): per-step cost of SQLite receipts (begin + finish, fsync on) vs the file idempotency store's per-call cost");
  console.log(`  tool call without journal   ${best.plain.toFixed(1).padStart(8)} µs`);
  console.log(`  with journal                ${best.journal.toFixed(1).padStart(8)} µs   overhead ${journalUs.toFixed(1)} µs/step`);
  console.log(`  with file idempotency store ${best.store.toFixed(1).padStart(8)} µs   overhead ${storeUs.toFixed(1)} µs/call`);
  console.log(`  journal / file store        ${(journalUs / storeUs).toFixed(2)}× (target ≤ 2×)\n`);
  return { plainUs: best.plain, journalUs, storeUs };
}

if (import.meta.main) await benchJournalOverhead();

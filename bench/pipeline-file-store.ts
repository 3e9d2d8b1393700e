/**
 * Issue #3 figure: durable idempotent writes per second through the tool pipeline with the
 * file store (spec §11), at 10 and at 1,000 stored records, against the floor of a bare
 * loop of write-temp + fsync + rename + directory fsync of the same bytes, in the same run.
 *
 * A "durable idempotent write" is one pipeline call of an idempotent tool with a fresh key:
 * claim (a claim file, no fsync), handler, then the record written durably (the one fsync'd
 * rewrite of the envelope). The measured tool's records live 1 ms, so each is purged by the
 * next write and the store stays at its prefilled size (+1); the prefilled records live an
 * hour. Rounds interleave floor and store; each keeps its best round.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../src/syntax/parse";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { systemClock } from "../src/runtime/base/clock";
import { FileIdempotencyStore } from "../src/runtime/stores/file/file-idempotency-store";
import { encodeEnvelope, encryptedKdf, newWriteId, parseEnvelope, type Records } from "../src/runtime/stores/file/envelope";
import { deriveKeys } from "../src/runtime/stores/file/envelope-cipher";

const SOURCE = `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  idempotency_ttl_ms: 1
}
`;
const PASSPHRASE = "bench passphrase";
const ROUNDS = 6;

/** The same steps as the store's durable write, with nothing else. */
const bareDurableWrite = (dir: string, target: string, bytes: Buffer, i: number): void => {
  const temp = `${target}.${i}.tmp`;
  const fd = openSync(temp, "w", 0o600);
  writeSync(fd, bytes);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(temp, target);
  const d = openSync(dir, "r");
  fsyncSync(d);
  closeSync(d);
};

/** A store file holding `n` live records shaped like the benchmark's own. */
const prefill = (path: string, n: number, encrypted: boolean): void => {
  const opts = { path, clock: systemClock, warn: () => {}, ...(encrypted ? { encryption: "aes-256-gcm" as const, passphrase: PASSPHRASE } : {}) };
  FileIdempotencyStore.open(opts).close();
  const doc = parseEnvelope(readFileSync(path, "utf8"))!;
  const keys = encrypted ? deriveKeys(PASSPHRASE, encryptedKdf(doc)!) : undefined;
  const records: Records = new Map();
  const exp = Date.now() + 3_600_000;
  for (let i = 0; i < n; i++) {
    const id = `prefill-${String(i).padStart(6, "0")}`;
    records.set(`db_write\u0000s${id}`, { fp: "x".repeat(43), exp, value: { id, value: `value-${id}` } });
  }
  writeFileSync(path, encodeEnvelope(records, newWriteId(), keys));
};

const measure = async (records: number, calls: number, encrypted: boolean) => {
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-store-"));
  const path = join(dir, "idem.json");
  prefill(path, records, encrypted);
  const store = FileIdempotencyStore.open({
    path,
    clock: systemClock,
    ...(encrypted ? { encryption: "aes-256-gcm" as const, passphrase: PASSPHRASE } : {}),
  });
  const program = parse(SOURCE, "bench.luma").program!;
  const invoker = createToolInvoker({
    program,
    schemas: createSchemaTable(program),
    registry: { handler: () => (i: { request_id: string; value: string }) => ({ id: i.request_id, value: i.value }) },
    config: {},
    env: {},
    warn: () => {},
    idempotencyStore: store,
  });
  let k = 0;
  const call = () => {
    const id = `call-${String(k++).padStart(6, "0")}`;
    return invoker.call({ tool: "db_write", input: { request_id: id, value: `value-${id}` }, mode: "direct" });
  };
  await call();
  const bytes = readFileSync(path); // the envelope as the store writes it at this size
  const floorDir = mkdtempSync(join(tmpdir(), "luma-bench-floor-"));
  let bestFloor = Infinity;
  let bestStore = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    for (let i = 0; i < calls; i++) bareDurableWrite(floorDir, join(floorDir, "f.json"), bytes, i);
    bestFloor = Math.min(bestFloor, (performance.now() - t) / calls);
    t = performance.now();
    for (let i = 0; i < calls; i++) await call();
    bestStore = Math.min(bestStore, (performance.now() - t) / calls);
  }
  store.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(floorDir, { recursive: true, force: true });
  return { bytes: bytes.length, floorPerSec: 1000 / bestFloor, storePerSec: 1000 / bestStore };
};

export async function benchPipelineFileStore(): Promise<void> {
  console.log("file idempotency store: durable idempotent writes/s through the pipeline vs a bare durable-write loop of the same bytes");
  for (const encrypted of [true, false]) {
    for (const [records, calls] of [
      [10, 100],
      [1000, 40],
    ]) {
      const r = await measure(records, calls, encrypted);
      const label = `${encrypted ? "aes-256-gcm" : "plain"}, ${records} records (${(r.bytes / 1024).toFixed(1)} KB envelope)`;
      console.log(
        `  ${label.padEnd(44)} store ${r.storePerSec.toFixed(0).padStart(5)}/s   floor ${r.floorPerSec.toFixed(0).padStart(5)}/s   ratio ${(r.storePerSec / r.floorPerSec).toFixed(2)}`,
      );
    }
  }
  console.log("");
}

if (import.meta.main) await benchPipelineFileStore();

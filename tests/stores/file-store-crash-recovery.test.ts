/**
 * Issue 3 reliability: a writer process killed with SIGKILL (kill -9) at each step of a
 * durable write (LUMA_TEST_CRASH_AT, a crash point only tests set). The store file then holds
 * the old envelope or the new one, never a partial one, with no key twice; the next process
 * opens it, clears what the dead one left (temp file, claim) and carries on.
 *
 * The program writes req-1…req-5 in order; the crash comes during req-3. Before the crash
 * point the handler of req-3 has run (its side effect is logged) — except for `after-claim`,
 * which stops before the handler. A crash between the handler and the record reaching the
 * disk cannot be told from one before the handler: the next process runs req-3 again (the
 * store promises no duplicate *record* and never a second run while a first is live; an
 * effect whose process died uncommitted is at-least-once).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { decodeEnvelope, encryptedKdf, parseEnvelope } from "../../src/runtime/stores/file/envelope";
import { deriveKeys } from "../../src/runtime/stores/file/envelope-cipher";
import { makeStoreProject, PASSPHRASE } from "./support/store-project";
import { claimsOf } from "./support/store-fixture";

const ALL = ["req-1", "req-2", "req-3", "req-4", "req-5"];
const keysOn = (path: string): string[] => {
  const text = readFileSync(path, "utf8");
  const doc = parseEnvelope(text);
  const decoded = decodeEnvelope(text, deriveKeys(PASSPHRASE, encryptedKdf(doc!)!));
  if (decoded.kind !== "ok") throw new Error(`the store file does not decode: ${decoded.kind}`);
  return [...decoded.records.keys()].map((k) => k.split("\u0000s")[1]);
};

interface Case {
  point: string;
  /** What the file holds right after the crash. */
  onDisk: string[];
  /** Whether the dead writer left its temp file. */
  tempLeft: boolean;
  /** How often req-3's handler ran in all, after the second process finished. */
  req3Runs: number;
}

// Counted from the second run: durable writes 1, 2, 3 = req-1, 2, 3; lock acquisitions: 1 at open, then 2 per key.
const CASES: Case[] = [
  { point: "after-claim:3", onDisk: ["req-1", "req-2"], tempLeft: false, req3Runs: 1 },
  { point: "after-temp-write:3", onDisk: ["req-1", "req-2"], tempLeft: true, req3Runs: 2 },
  { point: "before-rename:3", onDisk: ["req-1", "req-2"], tempLeft: true, req3Runs: 2 },
  { point: "after-rename:3", onDisk: ["req-1", "req-2", "req-3"], tempLeft: false, req3Runs: 1 },
  { point: "after-lock:6", onDisk: ["req-1", "req-2"], tempLeft: false, req3Runs: 1 }, // open, 2 per key: holding it to claim req-3
];

describe("§11 file store: kill -9 at each step of a write", () => {
  for (const c of CASES) {
    test.concurrent(`crash ${c.point}: the file holds ${c.onDisk.length === 3 ? "the new" : "the old"} envelope; the next process recovers`, async () => {
      const project = await makeStoreProject("file", { encrypted: true });
      expect((await project.run([])).exitCode).toBe(0); // creates the store: its first write is not counted below
      const crashed = await project.run(ALL, { LUMA_TEST_CRASH_AT: c.point });
      expect(crashed.signal).toBe("SIGKILL");

      const dir = dirname(project.storePath!);
      expect(keysOn(project.storePath!)).toEqual(c.onDisk);
      expect(readdirSync(dir).some((n) => n.endsWith(".tmp"))).toBe(c.tempLeft);

      const again = await project.run(ALL);
      expect({ exitCode: again.exitCode, stdout: again.stdout, stderr: again.stderr }).toEqual({ exitCode: 0, stdout: "done\n", stderr: "" });
      expect(keysOn(project.storePath!)).toEqual(ALL);
      expect(readdirSync(dir).filter((n) => n.endsWith(".tmp") || n.includes(".corrupt-"))).toEqual([]);
      expect(claimsOf(project.storePath!)).toEqual({});
      const effects = project.effects();
      expect(ALL.map((k) => effects.get(k))).toEqual([1, 1, c.req3Runs, 1, 1]);
    });
  }
});

/**
 * Test support for the file idempotency store: a fresh directory per test, a store opened
 * on it (warnings recorded), and small helpers for claims and the files the store keeps.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "../../../src/runtime/base/clock";
import { systemClock } from "../../../src/runtime/base/clock";
import { FileIdempotencyStore, type FileStoreOptions } from "../../../src/runtime/stores/file/file-idempotency-store";
import type { ClaimResult, ClaimToken } from "../../../src/runtime/stores/idempotency-store";

export const freshDir = (): string => mkdtempSync(join(tmpdir(), "luma-store-test-"));

export interface Opened {
  store: FileIdempotencyStore;
  warnings: string[];
  path: string;
}

export const openStore = (dir: string, opts: Partial<FileStoreOptions> & { clock?: Clock } = {}): Opened => {
  const warnings: string[] = [];
  const path = opts.path ?? join(dir, "idem.json");
  const store = FileIdempotencyStore.open({ clock: systemClock, ...opts, path });
  return { store, warnings, path };
};

export const req = (key: string, fingerprint = '{"v":1}', ttlMs = 60_000, leaseMs = 30_000) => ({ key, fingerprint, ttlMs, leaseMs });

export const tokenOf = (c: ClaimResult): ClaimToken => {
  if (c.kind !== "claimed") throw new Error(`expected a claim, got ${c.kind}`);
  return c.token;
};

/** claim + complete: one finished call. */
export const record = (store: FileIdempotencyStore, key: string, value: unknown, fingerprint = '{"v":1}', ttlMs = 60_000) =>
  store.complete(key, tokenOf(store.claim(req(key, fingerprint, ttlMs))), value, ttlMs);

export const filesIn = (dir: string): string[] => readdirSync(dir).sort();

/** The running claims the store's claim table holds: key digest → claim. */
export const claimsOf = (storePath: string): Record<string, { pid: number; token: string; fp: string; leaseUntil: number }> => {
  const text = existsSync(`${storePath}.claims`) ? readFileSync(`${storePath}.claims`, "utf8") : "";
  const line = text.split("\n")[0];
  return line === "" ? {} : JSON.parse(line).c;
};

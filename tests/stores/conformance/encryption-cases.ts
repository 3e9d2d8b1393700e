/**
 * Conformance cases, spec §11 `encryption: "aes-256-gcm"`: the same on every backend that
 * has it — the key from LUMA_IDEMPOTENCY_KEY through a KDF, nothing readable at rest, a
 * missing key or a wrong one is a clear startup error and never a silent reset.
 */
import { expect } from "bun:test";
import type { LumaError } from "../../../src/diagnostics/luma-error";
import { failureOf, PASSPHRASE, record, req, type ConformanceCase } from "./conformance-harness";

const sealed = { encryption: "aes-256-gcm" as const, passphrase: PASSPHRASE };
const encrypting = { applies: (b: { encryption: boolean }) => b.encryption };

const KEY = "tool\u0000sKEY-MARKER-1234";
const INPUT = '{"card":"INPUT-MARKER-5678"}';
const VALUE = { note: "VALUE-MARKER-9012" };
const MARKERS = ["KEY-MARKER", "INPUT-MARKER", "VALUE-MARKER"];

const startupMessage = (e: Error): string => {
  expect((e as LumaError).name).toBe("LumaError");
  expect((e as LumaError).phase).toBe("startup");
  return e.message;
};

export const ENCRYPTION_CASES: ConformanceCase[] = [
  {
    name: "encrypted records round-trip, and nothing at rest shows the key, the input or the output",
    ...encrypting,
    async run({ open, backend, place }) {
      const store = await open(sealed);
      await record(store, KEY, VALUE, INPUT);
      expect(await store.claim(req(KEY, INPUT))).toEqual({ kind: "done", value: VALUE });
      await store.close?.();
      const raw = await backend.rawDump(place);
      expect(raw.length).toBeGreaterThan(0);
      for (const m of MARKERS) expect(raw).not.toContain(m);
      expect(await (await open(sealed)).claim(req(KEY, INPUT))).toEqual({ kind: "done", value: VALUE });
    },
  },
  {
    name: "without encryption the output is readable at rest (so the sealed dump's silence above means something)",
    ...encrypting,
    async run({ open, backend, place }) {
      await record(await open(), KEY, VALUE, INPUT);
      expect(await backend.rawDump(place)).toContain("VALUE-MARKER");
    },
  },
  {
    name: "encryption without LUMA_IDEMPOTENCY_KEY is a startup error naming it",
    ...encrypting,
    async run({ open }) {
      const e = await failureOf(() => open({ encryption: "aes-256-gcm" }));
      expect(startupMessage(e)).toBe('idempotency_store encryption "aes-256-gcm" needs the passphrase in LUMA_IDEMPOTENCY_KEY, which is not set.');
    },
  },
  {
    name: "a wrong LUMA_IDEMPOTENCY_KEY is a clear startup error, never a silent reset: the right key still reads the records",
    ...encrypting,
    async run({ open }) {
      const first = await open(sealed);
      await record(first, KEY, VALUE, INPUT);
      await first.close?.();
      const e = await failureOf(() => open({ encryption: "aes-256-gcm", passphrase: "not the passphrase" }));
      expect(startupMessage(e)).toMatch(/^LUMA_IDEMPOTENCY_KEY does not match the key idempotency store .+ was encrypted with; the (file|store) was left unchanged\.$/);
      expect(await (await open(sealed)).claim(req(KEY, INPUT))).toEqual({ kind: "done", value: VALUE });
    },
  },
  {
    name: "an encrypted store opened without encryption is a startup error; the store is left unchanged",
    ...encrypting,
    async run({ open }) {
      const first = await open(sealed);
      await record(first, KEY, VALUE, INPUT);
      await first.close?.();
      const e = await failureOf(() => open());
      expect(startupMessage(e)).toContain('is encrypted: set "encryption": "aes-256-gcm" in idempotency_store and LUMA_IDEMPOTENCY_KEY');
      expect(await (await open(sealed)).claim(req(KEY, INPUT))).toEqual({ kind: "done", value: VALUE });
    },
  },
  {
    name: "a plain store opened with encryption is sealed in place: its records still replay, and are no longer readable at rest",
    ...encrypting,
    async run({ open, backend, place }) {
      const plain = await open();
      await record(plain, KEY, VALUE, INPUT);
      await plain.close?.();
      const store = await open(sealed);
      expect(await store.claim(req(KEY, INPUT))).toEqual({ kind: "done", value: VALUE });
      expect(await store.claim(req(KEY, "{}"))).toEqual({ kind: "conflict", running: false });
      await store.close?.();
      for (const m of MARKERS) expect(await backend.rawDump(place)).not.toContain(m);
    },
  },
];

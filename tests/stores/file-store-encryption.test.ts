/** Spec §11 file store with `encryption: "aes-256-gcm"` and the key from LUMA_IDEMPOTENCY_KEY. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LumaError } from "../../src/diagnostics/luma-error";
import { openIdempotencyStore } from "../../src/runtime/stores/open-idempotency-store";
import { FileIdempotencyStore } from "../../src/runtime/stores/file/file-idempotency-store";
import { claimsOf, freshDir, openStore, record, req, tokenOf } from "./support/store-fixture";

const PASS = "correct horse battery staple";
const sealed = (dir: string, passphrase = PASS) => openStore(dir, { encryption: "aes-256-gcm", passphrase });
const envelopeOf = (path: string) => JSON.parse(readFileSync(path, "utf8"));

const thrown = (f: () => unknown): LumaError => {
  try {
    f();
  } catch (e) {
    if (e instanceof LumaError) return e;
    throw e;
  }
  throw new Error("expected an error");
};

describe("§11 file store: AES-256-GCM", () => {
  test("records are sealed: no key, value or input text in the file, and a fresh 12-byte IV on every write", () => {
    const { store, path } = sealed(freshDir());
    record(store, "request-id-canary", { note: "value-canary" }, '{"input":"input-canary"}');
    const first = envelopeOf(path);
    record(store, "second", 2);
    const second = envelopeOf(path);
    const text = readFileSync(path, "utf8");
    for (const canary of ["request-id-canary", "value-canary", "input-canary"]) expect(text).not.toContain(canary);
    expect(first.encryption).toBe("aes-256-gcm");
    expect(Buffer.from(first.iv, "base64").length).toBe(12);
    expect(Buffer.from(first.tag, "base64").length).toBe(16);
    expect(second.iv).not.toBe(first.iv);
  });

  test("the key is derived from the passphrase with scrypt; the envelope names the KDF and its salt, never the passphrase", () => {
    const { path } = sealed(freshDir());
    const env = envelopeOf(path);
    expect(env.kdf).toMatchObject({ name: "scrypt", n: 16384, r: 8, p: 1 });
    expect(Buffer.from(env.kdf.salt, "base64").length).toBe(16);
    expect(readFileSync(path, "utf8")).not.toContain(PASS);
  });

  test("the same passphrase opens the file again and replays its records", () => {
    const dir = freshDir();
    const first = sealed(dir);
    record(first.store, "k", { id: 1 });
    first.store.close();
    expect(sealed(dir).store.claim(req("k"))).toEqual({ kind: "done", value: { id: 1 } });
  });

  test("the claim table (outside the sealed envelope) holds digests only: neither the key nor the input appears", () => {
    const { store, path } = sealed(freshDir());
    tokenOf(store.claim(req("request-id-canary", '{"input":"input-canary"}')));
    expect(Object.keys(claimsOf(path)).length).toBe(1);
    const text = readFileSync(`${path}.claims`, "utf8");
    expect(text).not.toContain("request-id-canary");
    expect(text).not.toContain("input-canary");
  });

  test("missing LUMA_IDEMPOTENCY_KEY is a startup error that names it", async () => {
    const e = await openIdempotencyStore(
      { backend: "file", path: "idem.json", encryption: "aes-256-gcm" },
      { projectDir: freshDir(), env: {}, warn: () => {} },
    ).then(
      () => undefined,
      (err) => err as LumaError,
    );
    expect(e?.phase).toBe("startup");
    expect(e?.message).toBe('idempotency_store encryption "aes-256-gcm" needs the passphrase in LUMA_IDEMPOTENCY_KEY, which is not set.');
  });

  test("a wrong key is a clear error, and the file is left byte for byte as it was (no silent reset)", () => {
    const dir = freshDir();
    const { store, path } = sealed(dir);
    record(store, "k", 1);
    store.close();
    const before = readFileSync(path);
    const e = thrown(() => sealed(dir, "not the passphrase"));
    expect(e.phase).toBe("startup");
    expect(e.message).toBe(
      `LUMA_IDEMPOTENCY_KEY does not match the key idempotency store ${path} was encrypted with; the file was left unchanged.`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir).some((n) => n.includes(".corrupt-"))).toBe(false);
    expect(sealed(dir).store.claim(req("k"))).toEqual({ kind: "done", value: 1 });
  });

  test("an encrypted file opened without encryption is refused and left unchanged", () => {
    const dir = freshDir();
    const { store, path } = sealed(dir);
    record(store, "k", 1);
    store.close();
    const before = readFileSync(path);
    expect(thrown(() => openStore(dir)).message).toContain("is encrypted");
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  test("a plain file opened with encryption keeps its records and is sealed from then on", () => {
    const dir = freshDir();
    const plain = openStore(dir);
    record(plain.store, "k", { id: 3 });
    plain.store.close();
    const { store, path } = sealed(dir);
    expect(envelopeOf(path).encryption).toBe("aes-256-gcm");
    expect(store.claim(req("k"))).toEqual({ kind: "done", value: { id: 3 } });
  });

  test("a passphrase of any length works (it is stretched, not used as the key)", () => {
    for (const passphrase of ["x", "ü".repeat(300)]) {
      const dir = freshDir();
      record(sealed(dir, passphrase).store, "k", 1);
      expect(sealed(dir, passphrase).store.claim(req("k")).kind).toBe("done");
    }
  });

  test("FileIdempotencyStore.open without a passphrase never creates a file", () => {
    const dir = freshDir();
    expect(() => FileIdempotencyStore.open({ path: join(dir, "idem.json"), encryption: "aes-256-gcm", clock: { now: () => 0 } as never })).toThrow(
      "LUMA_IDEMPOTENCY_KEY",
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

/**
 * Spec §11: "a corrupt file is quarantined and a new one created" — truncated, empty,
 * random bytes, malformed, an invalid version, tampered sealed data or GCM tag. A file
 * that is fine but not ours to read (a newer envelope version) is left alone instead.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LumaError } from "../../src/diagnostics/luma-error";
import { freshDir, openStore, record, req } from "./support/store-fixture";

const PASS = "store passphrase";

/** A valid envelope with one record, as the store wrote it. */
const validFile = (encrypted: boolean): { dir: string; path: string; text: string } => {
  const dir = freshDir();
  const { store, path } = openStore(dir, encrypted ? { encryption: "aes-256-gcm", passphrase: PASS } : {});
  record(store, "k", { id: 1 });
  store.close();
  return { dir, path, text: readFileSync(path, "utf8") };
};

const edit = (text: string, f: (doc: Record<string, unknown>) => void): string => {
  const doc = JSON.parse(text);
  f(doc);
  return JSON.stringify(doc);
};

/** Flips one base64 character of a field, keeping it valid base64 of the same length. */
const flip = (b64: string, at = 4): string => b64.slice(0, at) + (b64[at] === "A" ? "B" : "A") + b64.slice(at + 1);

const CORRUPT: [name: string, encrypted: boolean, damage: (text: string) => string | Buffer, reason: string][] = [
  ["empty", false, () => "", "the file is empty"],
  ["truncated", false, (t) => t.slice(0, Math.floor(t.length / 2)), "it is not a Luma idempotency envelope (truncated or overwritten?)"],
  ["truncated (sealed)", true, (t) => t.slice(0, t.length - 40), "it is not a Luma idempotency envelope (truncated or overwritten?)"],
  ["random bytes", false, () => randomBytes(512), "it is not a Luma idempotency envelope (truncated or overwritten?)"],
  ["another JSON document", false, () => '{"hello":"world"}', "it is not a Luma idempotency envelope (truncated or overwritten?)"],
  ["an invalid version", false, (t) => edit(t, (d) => (d.version = "one")), "its version field is invalid"],
  ["malformed records", false, (t) => edit(t, (d) => (d.records = [["k"]])), "its records are malformed"],
  ["tampered sealed data (bad GCM tag)", true, (t) => edit(t, (d) => (d.data = flip(d.data as string))), "its authentication tag does not verify (the data was altered)"],
  ["a tampered GCM tag", true, (t) => edit(t, (d) => (d.tag = flip(d.tag as string))), "its authentication tag does not verify (the data was altered)"],
  ["a tampered IV", true, (t) => edit(t, (d) => (d.iv = flip(d.iv as string))), "its authentication tag does not verify (the data was altered)"],
];

describe("§11 file store: a corrupt file is quarantined and a fresh one created", () => {
  for (const [name, encrypted, damage, reason] of CORRUPT) {
    test(name, () => {
      const { dir, path, text } = validFile(encrypted);
      const bad = damage(text);
      writeFileSync(path, bad);
      const { store, warnings } = openStore(dir, encrypted ? { encryption: "aes-256-gcm", passphrase: PASS } : {});
      // The warning names the file, the reason and where the file went.
      const aside = readdirSync(dir).filter((n) => n.startsWith("idem.json.corrupt-"));
      expect(aside.length).toBe(1);
      expect(warnings).toEqual([
        `warning: idempotency store ${path} is corrupt (${reason}); moved it aside to ${join(dir, aside[0])} and started an empty store.`,
      ]);
      // Quarantined as it was, byte for byte; the new store is empty and works.
      expect(readFileSync(join(dir, aside[0])).equals(Buffer.from(bad))).toBe(true);
      expect(store.claim(req("k")).kind).toBe("claimed");
      record(store, "other", 2);
      expect(store.claim(req("other"))).toEqual({ kind: "done", value: 2 });
    });
  }

  test("a file from a newer Luma (envelope version 2) is not ours to reset: startup error, file unchanged", () => {
    const { dir, path, text } = validFile(false);
    const newer = edit(text, (d) => (d.version = 2));
    writeFileSync(path, newer);
    let error: unknown;
    try {
      openStore(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LumaError);
    expect((error as LumaError).message).toBe(
      `Idempotency store ${path} has envelope version 2, newer than this Luma reads (1); the file was left unchanged.`,
    );
    expect(readFileSync(path, "utf8")).toBe(newer);
    expect(readdirSync(dir).some((n) => n.includes(".corrupt-"))).toBe(false);
  });

  test("a file damaged while the store is open is quarantined at its next write, which then starts a fresh one", () => {
    const { dir, path } = validFile(false);
    const { store, warnings } = openStore(dir);
    writeFileSync(path, "garbage");
    record(store, "other", 2);
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain("is corrupt");
    expect(openStore(dir).store.claim(req("other"))).toEqual({ kind: "done", value: 2 });
  });
});

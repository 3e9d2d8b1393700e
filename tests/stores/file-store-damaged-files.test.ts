/**
 * Spec §11: a corrupt file stops the program and is left as it is — truncated, empty,
 * random bytes, malformed, an invalid version, tampered sealed data or GCM tag. Starting an
 * empty store instead would run again every call the file records; resetting is the
 * deliberate `luma store reset` (tests/stores/untrusted-store-files.test.ts, through the
 * binary). A file that is fine but not ours to read (a newer envelope version) is left
 * alone too.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { LumaError } from "../../src/diagnostics/luma-error";
import { MAX_ENVELOPE_BYTES } from "../../src/runtime/stores/file/read-envelope-file";
import { freshDir, openStore, record, req, tokenOf } from "./support/store-fixture";

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

/** The error opening `dir`'s store throws (undefined when it opens). */
const openError = (dir: string, encrypted = false): unknown => {
  try {
    openStore(dir, encrypted ? { encryption: "aes-256-gcm", passphrase: PASS } : {}).store.close();
  } catch (e) {
    return e;
  }
  return undefined;
};

const refusal = (path: string, reason: string) =>
  `Idempotency store ${path} is corrupt (${reason}); the file was left unchanged and nothing ran. An empty store would run again every call this one records: to start over deliberately, run \`luma store reset\` in the project directory, or move the file aside by hand.`;

describe("§11 file store: a corrupt file is refused and left as it is, never replaced by an empty store", () => {
  for (const [name, encrypted, damage, reason] of CORRUPT) {
    test(name, () => {
      const { dir, path, text } = validFile(encrypted);
      const bad = damage(text);
      writeFileSync(path, bad);
      const error = openError(dir, encrypted);
      // A startup error (the program does not run) naming the file, the reason and the way out.
      expect(error).toBeInstanceOf(LumaError);
      expect((error as LumaError).phase).toBe("startup");
      expect((error as LumaError).message).toBe(refusal(path, reason));
      // Nothing moved aside, nothing rewritten: the file is as it was, byte for byte.
      expect(readdirSync(dir).some((n) => n.includes(".corrupt-"))).toBe(false);
      expect(readFileSync(path).equals(Buffer.from(bad))).toBe(true);
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

  test("a file damaged while the store is open fails the next call that reads it, and is left as it is", () => {
    const { dir, path } = validFile(false);
    const { store, warnings } = openStore(dir);
    writeFileSync(path, "garbage");
    expect(() => record(store, "other", 2)).toThrow(refusal(path, "it is not a Luma idempotency envelope (truncated or overwritten?)"));
    expect(warnings).toEqual([]);
    expect(readFileSync(path, "utf8")).toBe("garbage");
    expect(readdirSync(dir).some((n) => n.includes(".corrupt-"))).toBe(false);
    store.close();
  });

  test("a completion that would write an envelope past the read cap fails instead of writing a file the next start would refuse", () => {
    const { dir, path, text } = validFile(false);
    const { store } = openStore(dir);
    const token = tokenOf(store.claim(req("huge")));
    expect(() => store.complete("huge", token, "x".repeat(MAX_ENVELOPE_BYTES), 60_000)).toThrow(
      new RegExp(`^Idempotency store ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} cannot record this call: the file would be \\d+ bytes, more than a file store reads \\(${MAX_ENVELOPE_BYTES} bytes\\); use the sqlite, postgres or redis backend\\.$`),
    );
    expect(readFileSync(path, "utf8")).toBe(text); // the file as it was; the store still works
    record(store, "small", 1);
    expect(store.claim(req("small"))).toEqual({ kind: "done", value: 1 });
    store.close();
  });
});

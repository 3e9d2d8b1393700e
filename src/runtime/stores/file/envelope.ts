/**
 * The file store's on-disk format: one JSON document, the versioned envelope.
 *
 *   {"format":"luma-idempotency","version":1,"write_id":"<16 hex>","encryption":"none",
 *    "records":[[key, fingerprint digest, expires_at ms, value], …]}
 *   {"format":"luma-idempotency","version":1,"write_id":"…","encryption":"aes-256-gcm",
 *    "kdf":{…},"key_check":"…","iv":"…","tag":"…","data":"<sealed records JSON>"}
 *
 * `write_id` is random per write; the claim table names the one the last writer committed,
 * so a claim can tell whether the file changed since it was read without opening it. (A
 * completion, about to rewrite the file, checks the file's own identity: envelope-pin.ts.)
 *
 * Decoding sorts every failure into what the store does about it:
 *   corrupt   (empty, truncated, not JSON, wrong shape, bad GCM tag) → stop; leave the file alone
 *             (never an empty store, which would run every recorded call again)
 *   newer     (a version this code does not know)                  → stop; leave the file alone
 *   wrong-key (key_check differs)                                   → stop; leave the file alone
 *   needs-key (encrypted, but the config asks for no encryption)    → stop; leave the file alone
 */
import { kdfParamsValid, keyMatches, seal, unseal, type KdfParams, type StoreKeys } from "./envelope-cipher";

export const ENVELOPE_FORMAT = "luma-idempotency";
export const ENVELOPE_VERSION = 1;
const AAD = `${ENVELOPE_FORMAT}/${ENVELOPE_VERSION}`;

export interface StoredRecord {
  /** SHA-256 of the input fingerprint (sealed with the rest when the store is encrypted). */
  fp: string;
  /** Epoch ms after which the record is dropped. */
  exp: number;
  value: unknown;
  /** This record's serialised row, once written (the record is never changed after). */
  row?: string;
}

export type Records = Map<string, StoredRecord>;

export type Decoded =
  | { kind: "ok"; records: Records; writeId: string; encrypted: boolean }
  | { kind: "corrupt"; reason: string }
  | { kind: "newer"; version: number }
  | { kind: "wrong-key" }
  | { kind: "needs-key" };

const corrupt = (reason: string): Decoded => ({ kind: "corrupt", reason });

export const newWriteId = (): string => {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return a[0].toString(16).padStart(8, "0") + a[1].toString(16).padStart(8, "0");
};

/** Each record's row is serialised once and kept: a rewrite of 1,000 records then joins strings. */
const recordsJson = (records: Records): string => {
  const rows: string[] = [];
  for (const [key, r] of records) rows.push((r.row ??= JSON.stringify([key, r.fp, r.exp, r.value])));
  return "[" + rows.join(",") + "]";
};

export const encodeEnvelope = (records: Records, writeId: string, keys: StoreKeys | undefined): string => {
  const head = `{"format":"${ENVELOPE_FORMAT}","version":${ENVELOPE_VERSION},"write_id":"${writeId}"`;
  if (keys === undefined) return `${head},"encryption":"none","records":${recordsJson(records)}}\n`;
  const sealed = seal(keys, recordsJson(records), AAD);
  return `${head},"encryption":"aes-256-gcm","kdf":${JSON.stringify(keys.kdf)},"key_check":"${keys.keyCheck}","iv":"${sealed.iv}","tag":"${sealed.tag}","data":"${sealed.data}"}\n`;
};

const rowsToRecords = (rows: unknown): Records | undefined => {
  if (!Array.isArray(rows)) return undefined;
  const records: Records = new Map();
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== 4) return undefined;
    const [key, fp, exp] = row;
    if (typeof key !== "string" || typeof fp !== "string" || typeof exp !== "number" || !Number.isFinite(exp)) return undefined;
    records.set(key, { fp, exp, value: row[3] });
  }
  return records;
};

/** The envelope's header fields, for the store to pick the key before decoding. */
export const encryptedKdf = (doc: Record<string, unknown>): KdfParams | undefined =>
  doc.encryption === "aes-256-gcm" && kdfParamsValid(doc.kdf) ? doc.kdf : undefined;

/** Parses the text far enough to read its header; undefined when it is no envelope at all. */
export const parseEnvelope = (text: string): Record<string, unknown> | undefined => {
  try {
    const doc = JSON.parse(text);
    return doc !== null && typeof doc === "object" && !Array.isArray(doc) && doc.format === ENVELOPE_FORMAT ? doc : undefined;
  } catch {
    return undefined;
  }
};

/** `keys`: the store's keys when it is encrypted (derived with the file's own KDF salt). */
export const decodeEnvelope = (text: string, keys: StoreKeys | undefined): Decoded => {
  if (text.length === 0) return corrupt("the file is empty");
  const doc = parseEnvelope(text);
  if (doc === undefined) return corrupt("it is not a Luma idempotency envelope (truncated or overwritten?)");
  const version = doc.version;
  if (!Number.isInteger(version) || (version as number) < 1) return corrupt("its version field is invalid");
  if (version !== ENVELOPE_VERSION) return (version as number) > ENVELOPE_VERSION ? { kind: "newer", version: version as number } : corrupt("its version field is invalid");
  const writeId = typeof doc.write_id === "string" ? doc.write_id : "";
  if (doc.encryption === "none") {
    const records = rowsToRecords(doc.records);
    return records ? { kind: "ok", records, writeId, encrypted: false } : corrupt("its records are malformed");
  }
  if (doc.encryption !== "aes-256-gcm") return corrupt("its encryption field is invalid");
  if (keys === undefined) return { kind: "needs-key" };
  if (encryptedKdf(doc) === undefined || typeof doc.iv !== "string" || typeof doc.tag !== "string" || typeof doc.data !== "string") {
    return corrupt("its encryption header is malformed");
  }
  if (!keyMatches(keys, doc.key_check)) return { kind: "wrong-key" };
  const plain = unseal(keys, { iv: doc.iv, tag: doc.tag, data: doc.data }, AAD);
  if (plain === undefined) return corrupt("its authentication tag does not verify (the data was altered)");
  let rows: unknown;
  try {
    rows = JSON.parse(plain);
  } catch {
    return corrupt("its sealed records are not JSON");
  }
  const records = rowsToRecords(rows);
  return records ? { kind: "ok", records, writeId, encrypted: true } : corrupt("its records are malformed");
};

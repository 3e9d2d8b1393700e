/**
 * How a threads store (issue #26 §1) is sealed: the idempotency store's cipher and key
 * (file/envelope-cipher.ts: scrypt → HKDF → AES-256-GCM, passphrase LUMA_IDEMPOTENCY_KEY),
 * and its record codec (record-codec.ts): a thread's id is kept as a keyed digest, its
 * messages as one sealed value bound to that digest. The header (format, encryption, KDF
 * parameters, key check) is decided here for every backend:
 *
 *   no header                         → write one (plain, or sealed with a fresh salt)
 *   header as configured, right key   → use it
 *   plain store, encryption asked     → refused: threads written plain stay readable plain
 *   sealed store, no key or wrong key → refused; the store is left unchanged
 */
import { startupError } from "../../../diagnostics/luma-error";
import { deriveKeys, kdfParamsValid, keyMatches, newKdfParams, type KdfParams, type StoreKeys } from "../file/envelope-cipher";
import { RecordCodec } from "../record-codec";

export const THREADS_HEADER_FORMAT = "luma-threads";

export interface ThreadKeyOptions {
  encryption?: "aes-256-gcm";
  passphrase?: string;
  /** How messages name the store. */
  shown: string;
}

const refused = (shown: string, why: string) => startupError(`threads store ${shown}: ${why}; the store was left unchanged.`, { catalogCode: "E0661" });

/** The codec to read and write with, and the header to store when there is none yet. */
export function decideThreadKeys(stored: string | undefined, opts: ThreadKeyOptions): { codec: RecordCodec; write?: string } {
  if (opts.encryption !== undefined && !opts.passphrase) {
    throw startupError(`threads encryption "${opts.encryption}" needs the passphrase in LUMA_IDEMPOTENCY_KEY, which is not set.`, { catalogCode: "E0661" });
  }
  const label = `threads store ${opts.shown}`;
  if (stored === undefined) {
    const keys = opts.encryption === undefined ? undefined : deriveKeys(opts.passphrase!, newKdfParams());
    const header = keys
      ? { format: THREADS_HEADER_FORMAT, version: 1, encryption: "aes-256-gcm", kdf: keys.kdf, key_check: keys.keyCheck }
      : { format: THREADS_HEADER_FORMAT, version: 1, encryption: "none" };
    return { codec: new RecordCodec(keys, label), write: JSON.stringify(header) };
  }
  let doc: Record<string, unknown> | undefined;
  try {
    doc = JSON.parse(stored);
  } catch {
    doc = undefined;
  }
  if (!doc || typeof doc !== "object" || doc.format !== THREADS_HEADER_FORMAT) throw refused(opts.shown, "its header is not a Luma threads store's");
  if (doc.version !== 1) throw refused(opts.shown, `it has format version ${String(doc.version)}, which this Luma does not read`);
  if (doc.encryption === "none") {
    if (opts.encryption !== undefined) throw refused(opts.shown, 'it holds plain threads but "encryption" is set; move it aside to start an encrypted one');
    return { codec: new RecordCodec(undefined, label) };
  }
  if (opts.encryption === undefined) throw refused(opts.shown, 'it is encrypted: set "encryption": "aes-256-gcm" in threads and LUMA_IDEMPOTENCY_KEY');
  if (!kdfParamsValid(doc.kdf)) throw refused(opts.shown, "its encryption header is malformed");
  const keys: StoreKeys = deriveKeys(opts.passphrase!, doc.kdf as KdfParams);
  if (!keyMatches(keys, doc.key_check)) throw refused(opts.shown, "LUMA_IDEMPOTENCY_KEY does not match the key it was encrypted with");
  return { codec: new RecordCodec(keys, label) };
}

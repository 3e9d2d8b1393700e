/**
 * The header a record store (sqlite, postgres, redis) keeps beside its records: format,
 * version and encryption (with the KDF parameters and the key check), the counterpart of
 * the file store's envelope header. Opening a store reads it and decides, the same way on
 * every backend and the same way the file store does:
 *
 *   no header                        → write one (plain, or sealed with a fresh KDF salt) —
 *                                      unless live records are there: stop (the backend checks)
 *   plain header, encryption asked   → seal the store in place (the backend rewrites its rows)
 *   sealed header, no encryption     → stop: the store is encrypted; left unchanged
 *   sealed header, wrong passphrase  → stop: LUMA_IDEMPOTENCY_KEY does not match; left unchanged
 *   newer version / not a header     → stop; left unchanged
 */
import { startupError } from "../../diagnostics/luma-error";
import { deriveKeys, kdfParamsValid, keyMatches, newKdfParams, type KdfParams, type StoreKeys } from "./file/envelope-cipher";

export const HEADER_FORMAT = "luma-idempotency-records";
export const HEADER_VERSION = 1;

export interface HeaderOptions {
  encryption?: "aes-256-gcm";
  /** LUMA_IDEMPOTENCY_KEY. Never stored, never printed. */
  passphrase?: string;
  /** How messages name the store (credentials already removed). */
  shown: string;
}

export type HeaderDecision =
  /** Use these keys (undefined: plain); `write`: the header to store when there is none yet. */
  | { kind: "use"; keys: StoreKeys | undefined; write?: string }
  /** The store is plain and encryption is asked for: seal its rows with `keys`, then store `write`. */
  | { kind: "seal"; keys: StoreKeys; write: string };

export const headerText = (keys: StoreKeys | undefined): string =>
  keys === undefined
    ? JSON.stringify({ format: HEADER_FORMAT, version: HEADER_VERSION, encryption: "none" })
    : JSON.stringify({ format: HEADER_FORMAT, version: HEADER_VERSION, encryption: "aes-256-gcm", kdf: keys.kdf, key_check: keys.keyCheck });

/**
 * Why a store will not be opened, worded once for every backend; the file store says
 * "file" and "envelope version" where the record stores say "store" and "format version".
 */
export const storeRefusal = {
  wrongKey: (shown: string, what: "file" | "store") =>
    `LUMA_IDEMPOTENCY_KEY does not match the key idempotency store ${shown} was encrypted with; the ${what} was left unchanged.`,
  newer: (shown: string, what: "file" | "store", version: unknown, readable: number) =>
    `Idempotency store ${shown} has ${what === "file" ? "envelope" : "format"} version ${String(version)}, newer than this Luma reads (${readable}); the ${what} was left unchanged.`,
  needsKey: (shown: string, what: "file" | "store") =>
    `Idempotency store ${shown} is encrypted: set "encryption": "aes-256-gcm" in idempotency_store and LUMA_IDEMPOTENCY_KEY; the ${what} was left unchanged.`,
  /**
   * A store file (file or sqlite backend) that cannot be trusted: corrupt, tampered, empty,
   * not a regular file, too large. Never reset silently — an empty store would run again
   * every call it records — so the program stops and the message says how to reset it.
   */
  /**
   * Records on a server (postgres, redis) whose header is gone. A new header would carry a
   * new KDF salt, under which sealed records are never found again: their calls would run
   * again, so the store is refused, as a file store without a usable header is.
   */
  headerless: (shown: string) =>
    `Idempotency store ${shown} holds records but no header; the store was left unchanged and nothing ran. A new header would not read them (every call they record could run again): restore the header, or delete the records deliberately to start over.`,
  untrusted: (shown: string, problem: string) =>
    `Idempotency store ${shown} ${problem}; the file was left unchanged and nothing ran. An empty store would run again every call this one records: to start over deliberately, run \`luma store reset\` in the project directory, or move the file aside by hand.`,
};

/** Before touching the backend: encryption without a passphrase stops the program. */
export const requirePassphrase = (opts: Pick<HeaderOptions, "encryption" | "passphrase">): void => {
  if (opts.encryption !== undefined && !opts.passphrase) {
    throw startupError(`idempotency_store encryption "${opts.encryption}" needs the passphrase in LUMA_IDEMPOTENCY_KEY, which is not set.`, { catalogCode: "E0607" });
  }
};

const freshKeys = (opts: HeaderOptions): StoreKeys | undefined =>
  opts.encryption === undefined ? undefined : deriveKeys(opts.passphrase!, newKdfParams());

/** What to do with the header the store holds (`stored`: its text, undefined when absent). */
export const decideHeader = (stored: string | undefined, opts: HeaderOptions): HeaderDecision => {
  if (stored === undefined) {
    const keys = freshKeys(opts);
    return { kind: "use", keys, write: headerText(keys) };
  }
  const left = "; the store was left unchanged.";
  let doc: Record<string, unknown> | undefined;
  try {
    doc = JSON.parse(stored);
  } catch {
    doc = undefined;
  }
  if (doc === undefined || doc === null || typeof doc !== "object" || doc.format !== HEADER_FORMAT) {
    throw startupError(`Idempotency store ${opts.shown} holds a header that is not a Luma idempotency store's${left}`, { catalogCode: "E0609" });
  }
  const version = doc.version;
  if (!Number.isInteger(version) || (version as number) < 1) throw startupError(`Idempotency store ${opts.shown} has a malformed header${left}`, { catalogCode: "E0609" });
  if ((version as number) > HEADER_VERSION) {
    throw startupError(storeRefusal.newer(opts.shown, "store", version, HEADER_VERSION), { catalogCode: "E0609" });
  }
  if (doc.encryption === "none") {
    if (opts.encryption === undefined) return { kind: "use", keys: undefined };
    const keys = freshKeys(opts)!;
    return { kind: "seal", keys, write: headerText(keys) };
  }
  if (opts.encryption === undefined) {
    throw startupError(storeRefusal.needsKey(opts.shown, "store"), { catalogCode: "E0609" });
  }
  if (!kdfParamsValid(doc.kdf)) throw startupError(`Idempotency store ${opts.shown} has a malformed encryption header${left}`, { catalogCode: "E0609" });
  const keys = deriveKeys(opts.passphrase!, doc.kdf as KdfParams);
  if (!keyMatches(keys, doc.key_check)) {
    throw startupError(storeRefusal.wrongKey(opts.shown, "store"), { catalogCode: "E0609" });
  }
  return { kind: "use", keys };
};

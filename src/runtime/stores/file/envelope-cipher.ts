/**
 * The file store's encryption (spec §11 `encryption: "aes-256-gcm"`).
 *
 * LUMA_IDEMPOTENCY_KEY is a passphrase of any length, so the 256-bit key comes from a
 * password KDF: scrypt (N=2^14, r=8, p=1: ~16 MiB and tens of milliseconds, once per
 * process), with a random 16-byte salt kept in the envelope next to the parameters, so
 * stronger parameters can come later without breaking old files. HKDF then splits that
 * master key into an encryption key and a MAC key.
 *
 * Each write seals the records with AES-256-GCM under a fresh random 12-byte IV; the
 * envelope's fixed header is the additional authenticated data. A `key_check` (an HMAC of
 * a constant under the MAC key) tells a wrong passphrase apart from a damaged file: with
 * GCM alone both look like a failed tag, and the user must be told which: a wrong key
 * asks for the right one, damage for a deliberate reset. Both stop the program and leave
 * the file alone.
 */
type NodeCrypto = typeof import("node:crypto");
let loaded: NodeCrypto | undefined;
/**
 * node:crypto on first use. A static import would be hoisted into the bundle's module
 * graph and loaded by every `luma` start, file store or not (the CLI keeps it off its
 * start-up path); digests use Bun.CryptoHasher, which needs no import at all.
 */
const nodeCrypto = (): NodeCrypto => (loaded ??= require("node:crypto") as NodeCrypto);

const randomBase64 = (bytes: number): string => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64");

export interface KdfParams {
  name: "scrypt";
  n: number;
  r: number;
  p: number;
  /** base64 */
  salt: string;
}

export interface StoreKeys {
  kdf: KdfParams;
  enc: Buffer;
  mac: Buffer;
  /** base64 HMAC of a constant: equal iff the passphrase (and salt) are the same. */
  keyCheck: string;
}

export interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

export const newKdfParams = (): KdfParams => ({ name: "scrypt", n: 16384, r: 8, p: 1, salt: randomBase64(16) });

/**
 * The KDF parameters a store's header may ask for. They are read from the store (file,
 * database row, Redis key), so whoever can write it could ask for hours of scrypt or
 * gigabytes of memory at every start: only parameters near Luma's own are accepted —
 * never weaker than it writes (N=2^14, r=8: weaker would only help a guesser), at most
 * 8× its work and 128 MiB (128·N·r bytes), N a power of two (scrypt's own rule), a salt of
 * 16–64 bytes. Anything else is a malformed header.
 */
const KDF_BOUNDS = { minN: 1 << 14, maxN: 1 << 17, minR: 8, maxR: 16, maxP: 4, maxWork: (1 << 17) * 8, maxMemoryUnits: 1 << 20 };

export const kdfParamsValid = (k: unknown): k is KdfParams => {
  const o = k as KdfParams;
  if (o === null || typeof o !== "object" || o.name !== "scrypt" || typeof o.salt !== "string" || o.salt.length > 88) return false;
  const { n, r, p } = o;
  const b = KDF_BOUNDS;
  if (![n, r, p].every((x) => Number.isInteger(x) && x > 0)) return false;
  if (n < b.minN || n > b.maxN || (n & (n - 1)) !== 0 || r < b.minR || r > b.maxR || p > b.maxP) return false;
  const salt = Buffer.from(o.salt, "base64").length;
  return n * r * p <= b.maxWork && n * r <= b.maxMemoryUnits && salt >= 16 && salt <= 64;
};

export const deriveKeys = (passphrase: string, kdf: KdfParams): StoreKeys => {
  const { hkdfSync, scryptSync } = nodeCrypto();
  const salt = Buffer.from(kdf.salt, "base64");
  const master = scryptSync(passphrase, salt, 32, { N: kdf.n, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.n * kdf.r + 1024 * 1024 });
  const enc = Buffer.from(hkdfSync("sha256", master, salt, "luma idempotency store: encryption", 32));
  const mac = Buffer.from(hkdfSync("sha256", master, salt, "luma idempotency store: mac", 32));
  const keyCheck = new Bun.CryptoHasher("sha256", mac).update("luma idempotency store: key check").digest("base64");
  return { kdf, enc, mac, keyCheck };
};

/** Compares in time independent of where the texts differ. */
export const keyMatches = (keys: StoreKeys, keyCheck: unknown): boolean => {
  if (typeof keyCheck !== "string" || keyCheck.length !== keys.keyCheck.length) return false;
  let diff = 0;
  for (let i = 0; i < keyCheck.length; i++) diff |= keyCheck.charCodeAt(i) ^ keys.keyCheck.charCodeAt(i);
  return diff === 0;
};

export const seal = (keys: StoreKeys, plaintext: string, aad: string): Sealed => {
  const iv = Buffer.from(crypto.getRandomValues(new Uint8Array(12)));
  const cipher = nodeCrypto().createCipheriv("aes-256-gcm", keys.enc, iv);
  cipher.setAAD(Buffer.from(aad));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return { iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), data: data.toString("base64") };
};

/** The plaintext, or undefined when the tag does not verify (the data was altered). */
export const unseal = (keys: StoreKeys, sealed: Sealed, aad: string): string | undefined => {
  const iv = Buffer.from(sealed.iv, "base64");
  const tag = Buffer.from(sealed.tag, "base64");
  if (iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = nodeCrypto().createDecipheriv("aes-256-gcm", keys.enc, iv);
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
};

/**
 * A fixed-size digest of a text (an input fingerprint, an idempotency key). With keys:
 * HMAC, for what lies outside the sealed data (claim files), so it reveals nothing about
 * keys or inputs; without: SHA-256, for records inside the envelope and for plain stores.
 */
export const digestOf = (keys: StoreKeys | undefined, text: string): string =>
  keys ? new Bun.CryptoHasher("sha256", keys.mac).update(text).digest("base64url") : Bun.SHA256.hash(text, "base64url");

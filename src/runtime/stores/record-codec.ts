/**
 * How the record stores (sqlite, postgres, redis) write a record's key, fingerprint and
 * value, plain or sealed — the same way on every backend, with the file store's cipher
 * (file/envelope-cipher.ts: scrypt → HKDF → AES-256-GCM, LUMA_IDEMPOTENCY_KEY).
 *
 *   key id          plain: SHA-256 of the idempotency key (base64url)
 *                   sealed: HMAC-SHA-256 (MAC key) of that digest
 *   fingerprint id  the same, of the input fingerprint
 *   value           plain: JSON text; sealed: "v1.<iv>.<tag>.<data>" (AES-256-GCM, with the
 *                   key id as additional data, so a sealed value moved to another row fails)
 *
 * Ids are fixed-size, so a key with NUL bytes (the pipeline's type tag) or megabytes of
 * text is one short column, and a sealed store shows neither keys nor inputs. The sealed
 * id is keyed over the plain one, so a plain store can be sealed in place (`sealedId`)
 * without knowing the original keys.
 */
import { runtimeError } from "../../diagnostics/luma-error";
import { seal, unseal, type StoreKeys } from "./file/envelope-cipher";

const SEALED_PREFIX = "v1.";

// Bun.CryptoHasher, not node:crypto: a static node:crypto import is hoisted into the binary's
// start-up path (~3 ms on every `luma` run, store or not).
const plainId = (text: string): string => new Bun.CryptoHasher("sha256").update(text).digest("base64url");

export class RecordCodec {
  constructor(
    readonly keys: StoreKeys | undefined,
    /** How messages name the store. */
    private readonly shown: string,
  ) {}

  get encrypted(): boolean {
    return this.keys !== undefined;
  }

  /** The id of an idempotency key (or of a fingerprint): what the store's rows are keyed by. */
  idOf(text: string): string {
    const id = plainId(text);
    return this.keys ? this.sealedId(id) : id;
  }

  /** The sealed id of a plain id: how a plain store's rows are renamed when it is sealed. */
  sealedId(id: string): string {
    return new Bun.CryptoHasher("sha256", this.keys!.mac).update(id).digest("base64url");
  }

  encodeValue(keyId: string, value: unknown): string {
    const json = JSON.stringify(value) ?? "null"; // undefined is stored as null, like the file store
    if (!this.keys) return json;
    const s = seal(this.keys, json, keyId);
    return `${SEALED_PREFIX}${s.iv}.${s.tag}.${s.data}`;
  }

  /** The stored value; a sealed value that does not verify is an error, never a silent miss. */
  decodeValue(keyId: string, text: string): unknown {
    if (!this.keys) return JSON.parse(text);
    const [iv, tag, data] = text.startsWith(SEALED_PREFIX) ? text.slice(SEALED_PREFIX.length).split(".") : [];
    const plain = data === undefined ? undefined : unseal(this.keys, { iv, tag, data }, keyId);
    if (plain === undefined) {
      throw runtimeError(
        "RUNTIME_ERROR",
        `Idempotency store ${this.shown}: a stored record failed its integrity check (altered, or written with another key); it was left unchanged.`,
      );
    }
    return JSON.parse(plain);
  }

  /** A plain value sealed in place (sealing a plain store). */
  sealPlainValue(plainKeyId: string, text: string): string {
    return this.encodeValue(this.sealedId(plainKeyId), JSON.parse(text));
  }
}

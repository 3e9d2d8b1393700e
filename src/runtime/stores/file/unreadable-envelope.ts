/**
 * What the file store says about an envelope it cannot use, worded as the record stores word
 * it (store-header.ts). Every case stops the program and leaves the file as it is: a newer
 * version, a wrong or missing key, and a file that cannot be trusted (corrupt, tampered,
 * empty, not a regular file, too large) — never moved aside for a fresh store, which would
 * run again every completed call still inside its TTL.
 */
import { storeRefusal } from "../store-header";
import { ENVELOPE_VERSION, type Decoded } from "./envelope";

/** An envelope that is fine but not this store's to read: left as it is. */
export type Unreadable = Extract<Decoded, { kind: "newer" | "wrong-key" | "needs-key" }>;

export function fileRefusal(shown: string, decoded: Unreadable | Extract<Decoded, { kind: "corrupt" }>): string {
  if (decoded.kind === "corrupt") return storeRefusal.untrusted(shown, `is corrupt (${decoded.reason})`);
  if (decoded.kind === "newer") return storeRefusal.newer(shown, "file", decoded.version, ENVELOPE_VERSION);
  return decoded.kind === "wrong-key" ? storeRefusal.wrongKey(shown, "file") : storeRefusal.needsKey(shown, "file");
}

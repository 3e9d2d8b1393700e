/**
 * What the file store does with an envelope it cannot use, worded as the record stores word
 * it (store-header.ts): a corrupt file is moved aside with a `warning:` line (a fresh store
 * starts); a newer version, a wrong key or a missing key is a refusal that leaves the file
 * as it is.
 */
import { renameSync } from "node:fs";
import { storeRefusal } from "../store-header";
import { ENVELOPE_VERSION, type Decoded } from "./envelope";

/** An envelope that is fine but not this store's to read: left as it is. */
export type Unreadable = Extract<Decoded, { kind: "newer" | "wrong-key" | "needs-key" }>;

export function fileRefusal(shown: string, decoded: Unreadable): string {
  if (decoded.kind === "newer") return storeRefusal.newer(shown, "file", decoded.version, ENVELOPE_VERSION);
  return decoded.kind === "wrong-key" ? storeRefusal.wrongKey(shown, "file") : storeRefusal.needsKey(shown, "file");
}

/** Renames the corrupt file at `path` aside (named by time and pid) and says so on `warn`. */
export function moveAside(path: string, shown: string, reason: string, warn: (line: string) => void): void {
  const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}`;
  renameSync(path, aside);
  warn(`warning: idempotency store ${shown} is corrupt (${reason}); moved it aside to ${aside} and started an empty store.`);
}

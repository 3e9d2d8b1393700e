/**
 * Step 9's claim request: the key, the lease and TTL, and the fingerprint — written only when
 * a store reads it.
 *
 * A claim of a fresh key is the usual case, and the memory store has nothing to compare
 * then: only a later claim of the same key reads the fingerprint. So when the validated
 * input holds only primitives, the request keeps a snapshot of them (an object no one else
 * holds, of values that cannot change) and `fingerprint` writes the canonical text on first
 * read, from that snapshot — the same text the eager writer gives, whenever it is read.
 * Stores that read `fingerprint` at once (file, sqlite, postgres, redis) get it at once.
 *
 * `immutableFingerprint` tells a store that may keep the request that doing so keeps the
 * fingerprint: the request never changes after it is made (memory-idempotency-store.ts keeps
 * it in place of the text). A request is reused when a call claims again after waiting on a
 * running twin, so its text is written at most once per call.
 */
import type { ClaimRequest } from "../../stores/idempotency-store";
import type { Snapshot, ToolFingerprint } from "./input-fingerprint";

export class PipelineClaimRequest implements ClaimRequest {
  private text: string | undefined;

  constructor(
    readonly key: string,
    text: string | undefined,
    private readonly snapshot: Snapshot | undefined,
    private readonly writer: ToolFingerprint | undefined,
    readonly ttlMs: number,
    readonly leaseMs: number,
  ) {
    this.text = text;
  }

  /** A prototype getter, not a field: a memory store keeps every request, so it stays small. */
  get immutableFingerprint(): true {
    return true;
  }

  get fingerprint(): string {
    return (this.text ??= this.writer!.ofSnapshot(this.snapshot!));
  }
}

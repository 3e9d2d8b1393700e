/**
 * How the journal writes what it keeps: digests and results, plain or sealed — the
 * idempotency stores' RecordCodec (record-codec.ts: SHA-256 ids, AES-256-GCM values under
 * LUMA_IDEMPOTENCY_KEY), so one key and one header format serve both.
 *
 *   input digest   plain: SHA-256 of `name NUL canonical-input`; sealed: HMAC of it
 *   outcome        `{"ok": value}` or `{"error": {code, message, retryable, details}}`,
 *                  sealed with `run NUL step` as additional data: a sealed result moved
 *                  to another step (or run) fails its check instead of being replayed there
 *   arguments      the redacted preview of a call waiting for approval, sealed the same way
 *   decision       a person's approve/deny with the digest and request it answers, sealed
 *                  with `run NUL step NUL decision`: the approval the run trusts is this one,
 *                  not the table's plain `decision` column (kept for listing what waits)
 */
import { LumaError, runtimeError } from "../../diagnostics/luma-error";
import type { RecordCodec } from "../stores/record-codec";

export interface SealedDecision {
  decision: "approved" | "denied";
  /** The input digest decided on. */
  digest: string;
  /** When the decided request was made (its `requestedAt`). */
  requested: number;
  /** The person's value, when the call asked for one: a client tool's answer, an approval's note. */
  value?: unknown;
}

export type Outcome = { ok: unknown } | { error: { code?: string; message: string; retryable: boolean; details?: unknown } };

export class JournalCodec {
  constructor(
    private readonly records: RecordCodec,
    private readonly shown: string,
  ) {}

  digest(name: string, canonicalInput: string): string {
    return this.records.idOf(name + "\u0000" + canonicalInput);
  }

  encode(runId: string, stepId: string, value: unknown): string {
    return this.records.encodeValue(runId + "\u0000" + stepId, value);
  }

  decode(runId: string, stepId: string, text: string): unknown {
    try {
      return this.records.decodeValue(runId + "\u0000" + stepId, text);
    } catch (e) {
      stepId = stepId.split("\u0000").join(" "); // "main/1 args": a record beside the step's own, named without its NUL
      throw runtimeError(
        "RUNTIME_ERROR",
        e instanceof LumaError
          ? `Journal ${this.shown}: the record of step ${stepId} of run ${runId} failed its integrity check (altered, or written with another key); it was left unchanged.`
          : `Journal ${this.shown}: the record of step ${stepId} of run ${runId} is malformed (not the JSON Luma writes); it was left unchanged.`,
      );
    }
  }

  /**
   * A person's decision as the approvals table keeps it: `{decision, digest, requested}`
   * sealed with `run NUL step NUL decision` as additional data (encrypted journal), so a row
   * set to "approved" by SQL, or copied from another run or step, does not open — and the
   * request time it names ties it to one request of that step.
   */
  sealDecision(runId: string, stepId: string, d: SealedDecision): string {
    return this.encode(runId, stepId + "\u0000decision", d);
  }

  /** The decision a row holds, or undefined when it does not verify or is not one Luma wrote. */
  openDecision(runId: string, stepId: string, text: string | null): SealedDecision | undefined {
    if (text === null) return undefined;
    let d: Partial<SealedDecision> | null;
    try {
      d = this.records.decodeValue(runId + "\u0000" + stepId + "\u0000decision", text) as Partial<SealedDecision> | null;
    } catch {
      return undefined;
    }
    if (d === null || typeof d !== "object" || (d.decision !== "approved" && d.decision !== "denied") || typeof d.digest !== "string" || typeof d.requested !== "number") return undefined;
    return d as SealedDecision;
  }

  /** A step's recorded outcome, checked to be one Luma writes: `{ok}`, or `{error}` with a message. */
  decodeOutcome(runId: string, stepId: string, text: string | null): Outcome {
    const o = text === null ? undefined : (this.decode(runId, stepId, text) as Record<string, unknown> | null);
    const err = o?.error as Record<string, unknown> | undefined | null;
    const wellFormed =
      o !== null && typeof o === "object" && !Array.isArray(o) && Object.keys(o).length === 1 &&
      ("ok" in o || (typeof err === "object" && err !== null && typeof err.message === "string" && typeof (err.retryable ?? false) === "boolean"));
    if (!wellFormed) {
      throw runtimeError("RUNTIME_ERROR", `Journal ${this.shown}: the record of step ${stepId} of run ${runId} is malformed (no outcome Luma writes); it was left unchanged.`);
    }
    return o as Outcome;
  }
}

export const outcomeOfError = (e: unknown): Outcome => {
  const err = e as LumaError;
  if (e instanceof LumaError) return { error: { code: err.code, message: err.message, retryable: err.retryable, details: err.details } };
  return { error: { code: "RUNTIME_ERROR", message: e instanceof Error ? e.message : String(e), retryable: false } };
};

/** The recorded outcome again: the value, or the same error thrown. */
export const replayOutcome = (o: Outcome): unknown => {
  if ("ok" in o) return o.ok;
  throw new LumaError({ code: o.error.code, message: o.error.message, retryable: o.error.retryable, details: o.error.details, phase: "runtime" });
};

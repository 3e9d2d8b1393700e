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
 */
import { LumaError, runtimeError } from "../../diagnostics/luma-error";
import type { RecordCodec } from "../tools/stores/record-codec";

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
      if (!(e instanceof LumaError)) throw e;
      throw runtimeError(
        "RUNTIME_ERROR",
        `Journal ${this.shown}: the record of step ${stepId} of run ${runId} failed its integrity check (altered, or written with another key); it was left unchanged.`,
      );
    }
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

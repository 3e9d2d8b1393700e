/**
 * What a driver's error code means for the caller, as one table: whether another try later
 * can succeed, and, for the waits a statement can lose (a lock, a timeout), what happened
 * in words — "database is locked" says more than a driver's "canceling statement due to
 * lock timeout". Codes are SQLite's result codes (`SQLITE_BUSY`) and Postgres SQLSTATEs
 * (`55P03`); Bun's Postgres client puts the SQLSTATE in `errno`, its own `ERR_POSTGRES_*`
 * name in `code`, so the SQLSTATE is read first.
 */
export interface DriverErrorKind {
  retryable: boolean;
  /** Replaces the driver's message when set. */
  say?: string;
}

const LOCKED: DriverErrorKind = {
  retryable: true,
  say: "database is locked: another connection holds the lock it needs; retry once that connection is done",
};

const BY_CODE: Record<string, DriverErrorKind> = {
  SQLITE_BUSY: LOCKED,
  SQLITE_LOCKED: LOCKED,
  "55P03": { retryable: true, say: "a row or table it needs is locked by another transaction (lock timeout); retry once that transaction is done" },
  "40P01": { retryable: true, say: "deadlock detected; the server rolled the statement back, retry it" },
  "40001": { retryable: true, say: "could not serialize access due to concurrent update; retry it" },
  "57014": { retryable: true, say: "the server cancelled it (statement timeout)" },
  "57P01": { retryable: true },
  "53300": { retryable: true },
};

/** Driver errors that mean "could not reach the server": worth another try later. */
const CONNECTION_CODE = /CONNECTION|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH/i;
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The code a message shows: the SQLSTATE, else the driver's code (extended SQLite codes keep their base's kind). */
export function driverCodeOf(e: unknown): string | undefined {
  const o = e as { code?: unknown; errno?: unknown } | null;
  if (typeof o?.errno === "string" && SQLSTATE.test(o.errno)) return o.errno;
  return typeof o?.code === "string" ? o.code : undefined;
}

export function driverErrorKind(code: string | undefined): DriverErrorKind {
  if (code === undefined) return { retryable: false };
  const base = code.startsWith("SQLITE_") ? code.replace(/^(SQLITE_[A-Z]+)_.*$/, "$1") : code;
  return BY_CODE[base] ?? { retryable: CONNECTION_CODE.test(code) };
}

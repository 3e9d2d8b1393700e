/**
 * The contract between a run's journal (run-journal.ts) and where it is kept: SQLite for
 * one machine (sqlite-journal.ts), PostgreSQL for worker pools (postgres-journal.ts).
 *
 * A backend stores rows, never decides: a run row (status, the lease: owner, fencing token,
 * expiry), one row per step (its receipts), one row per approval. Every write made on
 * behalf of a run is fenced by the run's token: a process whose lease was taken over
 * changes nothing and learns it (`LeaseLost`). Values and previews arrive encoded already
 * (journal-codec.ts); digests are opaque text.
 *
 * Every method may answer synchronously (SQLite) or with a promise (PostgreSQL); callers
 * await either.
 */

/** `handoff`: an `ask` handed over to another agent (issue #27 §2, ask/handoffs.ts). */
export type StepKind = "tool" | "query" | "command" | "model" | "now" | "handoff";
/** `begun`: a begin receipt without a finish receipt (the process died, or it is running). */
export type StepStatus = "begun" | "ok" | "error";
export type RunStatus = "running" | "finished" | "failed" | "pending";

export interface StepRow {
  stepId: string;
  kind: StepKind;
  name: string;
  digest: string;
  status: StepStatus;
  /** Begin receipts written for this step (one per execution; retries inside one execution are counted by `attempts`). */
  begins: number;
  attempts: number;
  /** Encoded result (journal-codec.ts): the output, or the error. Null while begun. */
  output: string | null;
  /**
   * Encoded (sealed in an encrypted journal) record of what the step was asked, for `luma ui`'s
   * timeline (step-detail.ts): a tool call's redacted input, an `ask` request's messages. Never
   * replayed, never digested; null in journals written before it, and for `now()`.
   */
  detail?: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  durationMs: number | null;
  /** Insertion order, for listings. */
  seq: number;
}

export interface RunRow {
  runId: string;
  program: string;
  status: RunStatus;
  owner: string | null;
  leaseUntil: number;
  createdAt: number;
  updatedAt: number;
}

export type Decision = "approved" | "denied";

export interface ApprovalRow {
  runId: string;
  stepId: string;
  tool: string;
  /** The input digest the approval is for. */
  digest: string;
  /** Encoded redacted arguments (journal-codec.ts). */
  args: string;
  /** Plain, for listing what waits (`null`: pending); the run trusts only `sealedDecision`. */
  decision: Decision | null;
  /**
   * The decision with the digest and request it answers, encoded (sealed in an encrypted
   * journal) by JournalCodec.sealDecision: a decision binds to one exact input of one step
   * of one run. (Column `decided_digest`, the name it had when it held the digest alone.)
   */
  sealedDecision: string | null;
  requestedAt: number;
  decidedAt: number | null;
}

/**
 * One eval of one `luma eval` (and one per `--model` variant), recorded for `luma ui`'s Evals
 * view (evals/eval-record.ts): its scores and cases, each case naming its run. `report` is
 * encoded (sealed in an encrypted journal) like a step's outcome.
 */
export interface EvalRow {
  evalId: string;
  createdAt: number;
  report: string;
}

/** What `acquire` answers: the lease is ours (with its token), or another live process holds it. */
export type Acquired =
  | { kind: "acquired"; token: string; created: boolean }
  | { kind: "busy"; owner: string | null; leaseUntil: number }
  /** `continuing` and the run is not one that can go on: absent (status null), or ended (finished, failed). */
  | { kind: "refused"; status: RunStatus | null };

export interface AcquireRequest {
  runId: string;
  program: string;
  owner: string;
  token: string;
  now: number;
  leaseMs: number;
  /** Whether an unexpired lease may still be taken (its owner is known dead: same host, pid gone). */
  ownerDead: (owner: string) => boolean;
  /**
   * Whether an expired lease is still held: its token's owner runs on this machine
   * (claim-owner.ts) — a step that blocks the owner's thread stops its heartbeat, not the run.
   */
  holderRuns: (token: string) => boolean;
  /**
   * Take only a run the journal holds that can go on — one that waits (pending), or one whose
   * holder is gone mid-run (running, lease free) — and never create one: a served chat turn
   * continued for its client (serve/durable-chat-turns.ts). Else `{ kind: "refused" }`.
   */
  continuing?: boolean;
}

/** The statuses a `continuing` acquire takes (a free lease is checked first: a live holder is "busy"). */
export const CONTINUABLE: ReadonlySet<RunStatus> = new Set(["pending", "running"]);

type MaybePromise<T> = T | Promise<T>;

export interface JournalBackend {
  /** How messages name the journal (a path, or a URL without credentials). */
  readonly shown: string;
  /** The header row (store-header.ts), undefined when the journal is new. */
  readHeader(): MaybePromise<string | undefined>;
  writeHeader(text: string): MaybePromise<void>;
  /** No step recorded yet: a plain journal can still become an encrypted one. */
  isEmpty(): MaybePromise<boolean>;
  acquire(req: AcquireRequest): MaybePromise<Acquired>;
  /** Extends the lease; false when it was lost. */
  renew(runId: string, token: string, until: number): MaybePromise<boolean>;
  /**
   * Also extends the lease off the main thread (a worker with its own connection,
   * stores/off-thread-renewal.ts), so a step that blocks the thread does not let it
   * pass; answers the function that stops it. The Postgres journal (shared between machines).
   */
  renewOffThread?(runId: string, token: string, leaseMs: number): () => void;
  /** Ends the lease and records how the run ended. */
  release(runId: string, token: string, status: RunStatus, now: number): MaybePromise<void>;
  steps(runId: string): MaybePromise<StepRow[]>;
  /**
   * How many step rows the run's own row says it has (kept by every receipt in the same
   * transaction), or null for a run recorded before the journal counted: fewer rows than
   * that is a gap — a receipt deleted — and the run must not resume over it.
   */
  stepCount(runId: string): MaybePromise<number | null>;
  /** A begin receipt: creates the row (status begun) or counts one more begin. Fenced. */
  begin(runId: string, token: string, row: Pick<StepRow, "stepId" | "kind" | "name" | "digest" | "startedAt" | "detail">): MaybePromise<void>;
  /** A finish receipt (the row is created when no begin preceded it). Fenced. */
  finish(runId: string, token: string, row: Omit<StepRow, "seq" | "begins">): MaybePromise<void>;
  approvals(runId: string | undefined): MaybePromise<ApprovalRow[]>;
  /** Records (or renews) a pending approval for a step. Fenced. */
  requestApproval(runId: string, token: string, row: Omit<ApprovalRow, "decision" | "sealedDecision" | "decidedAt">): MaybePromise<void>;
  /** `luma approve` / `luma deny`: not fenced (a person decides; no run holds a lease then). */
  decide(runId: string, stepId: string, decision: Decision, sealed: string, now: number): MaybePromise<boolean>;
  runs(): MaybePromise<RunRow[]>;
  /** Not fenced: an eval's record is written once, after its cases' runs ended. */
  recordEval(row: EvalRow): MaybePromise<void>;
  /** Every recorded eval, oldest first. */
  evals(): MaybePromise<EvalRow[]>;
  close(): MaybePromise<void>;
}

export class LeaseLost extends Error {}

/**
 * One run's journal, as the interpreter, the tool pipeline and the ask flow use it.
 *
 * At start the run's lease is taken (another live holder: "run in progress") and its
 * receipts are read into memory, so that looking a step up is a map lookup — synchronous,
 * which `now()` needs. Writes go to the backend in order through one queue (`tail`): a
 * begin receipt is awaited before the side effect it announces; a finish receipt before the
 * result goes back to the program, so a later step can never be on disk before an earlier
 * one. A heartbeat renews the lease while the run lives. The heartbeat is a timer on the
 * main thread, which a step that blocks it stops; so the lease's token names this process
 * (claim-owner.ts) and an expired lease whose owner still runs on this machine is not taken
 * over (a stopped or dead owner's is). An owner on another machine has its lease alone;
 * the Postgres journal (shared between machines) therefore also renews it off the main
 * thread (stores/off-thread-renewal.ts).
 *
 * Replay rule: a step whose receipt says finished answers with its recorded outcome and runs
 * nothing; a step that only began (the process died during it) runs again, with its begin
 * count carried into the handler's `ctx.attempt`. A recorded step with another kind, name or
 * input digest than the program now asks for is a divergence: the run stops there.
 *
 * `now()` is journaled too (kind "now", ids `now#1`, `now#2`, … in call order): the
 * interpreter is deterministic given its steps' results and the clock is its only other
 * input, so a resumed run takes every decision the first one took.
 */
import { hostname } from "node:os";
import { crashPoint } from "../base/crash-points";
import { holderRunsHere, ownedToken } from "../stores/claim-owner";
import { isProcessAlive } from "../stores/file/process-alive";
import { isRunStop, journalErrors } from "./journal-errors";
import { LeaseLost, type ApprovalRow, type JournalBackend, type RunStatus, type StepKind, type StepRow } from "./journal-backend";
import { outcomeOfError, replayOutcome, type JournalCodec, type Outcome } from "./journal-codec";
import { checkRecorded } from "./journal-integrity";

export const DEFAULT_RUN_LEASE_MS = 30_000;

/**
 * A step's detail as `luma ui` reads it (a plain JSON object): `input` (a tool call's, secrets
 * redacted), `agent`, `messages`/`system` (an ask request), `usage`/`cost_usd`, and the
 * pipeline's flags (`cache_hit`, `idempotent_replay`, `single_flight`). Never a `needs`
 * value, a credential or a key.
 */
export type StepDetail = Record<string, unknown>;

/** What a waiting call needs from the person besides a yes: kind "answer" (a client tool) or "approval" (with a note). */
export interface PendingWants {
  kind: "answer" | "approval";
  /** The wanted type as written (`Confirmed`). */
  schema: string;
  json_schema: Record<string, unknown>;
}

export interface StartRunOptions {
  runId: string;
  /** The program file as given: shown by `luma runs`. */
  program: string;
  leaseMs?: number;
  now?: () => number;
  /**
   * Whether a call that needs a person with nobody to ask waits here for a recorded decision
   * (the run stops pending; `luma approve` / `luma runs answer`, then `--run-id` resumes it).
   * Default yes; a served call's run cannot be resumed that way (call-runs.ts): no.
   */
  waitsForPeople?: boolean;
  /** Only go on with a run the journal holds that waits or was left mid-run (journal-backend.ts `continuing`). */
  continuing?: boolean;
}

const HOST = hostname();
const OWNER = `${HOST}:${process.pid}`;

/** An owner string `host:pid` of this machine whose process is gone. */
const ownerDead = (owner: string): boolean => {
  const colon = owner.lastIndexOf(":");
  const pid = Number(owner.slice(colon + 1));
  return owner.slice(0, colon) === HOST && Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid);
};

const describe = (kind: StepKind, name: string) =>
  kind === "model" ? `a request to model '${name}'` : kind === "now" ? "a now() reading" : kind === "handoff" ? `a handoff to agent '${name}'` : `${kind} '${name}'`;

export class RunJournal {
  private tail: Promise<void> = Promise.resolve();
  private nowCount = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Stops the backend's off-thread renewals of the lease, when it has them. */
  private stopOffThread: (() => void) | undefined;
  private lost = false;
  /** A queued write that failed: every later write fails with it (nothing lands out of order). */
  private broken: unknown = undefined;
  readonly clock: () => number;

  private constructor(
    readonly backend: JournalBackend,
    readonly codec: JournalCodec,
    readonly runId: string,
    private readonly token: string,
    private readonly recorded: Map<string, StepRow>,
    private readonly approvalRows: Map<string, ApprovalRow>,
    /** The run had receipts already: this process resumes it. */
    readonly resumed: boolean,
    clock: () => number,
    /** StartRunOptions.waitsForPeople. */
    readonly waitsForPeople: boolean,
  ) {
    this.clock = clock;
  }

  static async start(backend: JournalBackend, codec: JournalCodec, opts: StartRunOptions): Promise<RunJournal> {
    const clock = opts.now ?? Date.now;
    const leaseMs = opts.leaseMs ?? DEFAULT_RUN_LEASE_MS;
    const token = ownedToken(crypto.randomUUID()); // names this process: see claim-owner.ts
    const got = await backend.acquire({ runId: opts.runId, program: opts.program, owner: OWNER, token, now: clock(), leaseMs, ownerDead, holderRuns: holderRunsHere, continuing: opts.continuing });
    if (got.kind === "busy") throw journalErrors.inProgress(opts.runId, got.owner, backend.shown);
    if (got.kind === "refused") throw journalErrors.notContinued(opts.runId, got.status, backend.shown);
    const steps = await backend.steps(opts.runId);
    const approvals = await backend.approvals(opts.runId);
    try {
      checkRecorded(backend.shown, opts.runId, steps, await backend.stepCount(opts.runId), approvals);
    } catch (e) {
      // Nothing ran: the lease goes back with the run's status as it was found.
      await Promise.resolve(backend.release(opts.runId, token, "failed", clock())).catch(() => {});
      throw e;
    }
    const j = new RunJournal(
      backend,
      codec,
      opts.runId,
      token,
      new Map(steps.map((s) => [s.stepId, s])),
      new Map(approvals.map((a) => [a.stepId, a])),
      steps.length > 0,
      clock,
      opts.waitsForPeople ?? true,
    );
    j.timer = setInterval(() => j.renew(leaseMs), Math.max(10, Math.floor(leaseMs / 3)));
    j.timer.unref?.();
    // Its beats use the wall clock: not under a test's injected clock.
    if (opts.now === undefined) j.stopOffThread = backend.renewOffThread?.(opts.runId, token, leaseMs);
    return j;
  }

  private renew(leaseMs: number): void {
    Promise.resolve(this.backend.renew(this.runId, this.token, this.clock() + leaseMs)).then(
      (held) => void (held || (this.lost = true)),
      () => {}, // a failed renewal is retried at the next beat; a lost lease shows at the next write
    );
  }

  /** Runs `write` after every earlier write; its failure (a lost lease included) fails the step. */
  private write(op: () => unknown): Promise<void> {
    const run = async () => {
      if (this.lost) throw journalErrors.leaseLost(this.runId);
      if (this.broken !== undefined) throw this.broken;
      try {
        await op();
      } catch (e) {
        if (e instanceof LeaseLost) {
          this.lost = true;
          throw journalErrors.leaseLost(this.runId);
        }
        throw (this.broken = journalErrors.failed(this.backend.shown, e));
      }
    };
    const next = this.tail.then(run);
    this.tail = next.catch(() => {});
    return next;
  }

  digest(name: string, canonicalInput: string): string {
    return this.codec.digest(name, canonicalInput);
  }

  /** The step's receipt, after checking that the program still makes the same call there. */
  lookup(stepId: string, kind: StepKind, name: string, digest: string): StepRow | undefined {
    const row = this.recorded.get(stepId);
    if (row === undefined) return undefined;
    if (row.kind !== kind || row.name !== name) throw journalErrors.diverged(this.runId, stepId, describe(row.kind, row.name), describe(kind, name));
    if (row.digest !== digest) {
      throw journalErrors.diverged(this.runId, stepId, `${describe(row.kind, row.name)} with another input`, `${describe(kind, name)} with this input`);
    }
    return row;
  }

  /** A finished step's recorded outcome: its value, or its error thrown again. */
  replay(row: StepRow): unknown {
    return replayOutcome(this.codecOutcome(row));
  }

  /** A finished step's outcome as recorded; an unreadable one stops the run naming the journal (a `try` cannot swallow it). */
  private codecOutcome(row: StepRow): Outcome {
    try {
      return this.codec.decodeOutcome(this.runId, row.stepId, row.output);
    } catch (e) {
      throw journalErrors.failed(this.backend.shown, e);
    }
  }

  isFinished(row: StepRow | undefined): row is StepRow & { status: "ok" | "error" } {
    return row !== undefined && row.status !== "begun";
  }

  /**
   * What the step was asked (a tool call's redacted input, an ask request's messages), sealed
   * like its outcome but under its own additional data: `luma ui` shows it; nothing replays it.
   */
  private encodeDetail(stepId: string, detail: StepDetail | undefined): string | null {
    return detail === undefined ? null : this.codec.encode(this.runId, stepId + "\u0000detail", detail);
  }

  begin(stepId: string, kind: StepKind, name: string, digest: string, detail?: StepDetail): Promise<void> {
    const startedAt = this.clock();
    const prior = this.recorded.get(stepId);
    this.recorded.set(stepId, { ...(prior ?? emptyRow(stepId, kind, name, digest)), status: "begun", begins: (prior?.begins ?? 0) + 1, startedAt });
    const encoded = this.encodeDetail(stepId, detail);
    return this.write(() => this.backend.begin(this.runId, this.token, { stepId, kind, name, digest, startedAt, detail: encoded })).then(() => crashPoint("journal-after-begin"));
  }

  /** `t0`: `performance.now()` when the step started (durations are measured, timestamps are the clock's). */
  finish(stepId: string, kind: StepKind, name: string, digest: string, outcome: Outcome, attempts: number, t0: number, detail?: StepDetail): Promise<void> {
    const finishedAt = this.clock();
    const durationMs = performance.now() - t0;
    const output = this.codec.encode(this.runId, stepId, outcome);
    const status = "ok" in outcome ? "ok" : "error";
    const row = { stepId, kind, name, digest, status, attempts, output, startedAt: Math.round(finishedAt - durationMs), finishedAt, durationMs, detail: this.encodeDetail(stepId, detail) } as const;
    const prior = this.recorded.get(stepId);
    this.recorded.set(stepId, { ...row, begins: prior?.begins ?? 0, seq: prior?.seq ?? this.recorded.size });
    return this.write(() => this.backend.finish(this.runId, this.token, row)).then(() => crashPoint("journal-after-finish"));
  }

  /** Begin receipts earlier processes wrote for this step (it ran, or began, that often before). */
  priorBegins(stepId: string): number {
    return this.recorded.get(stepId)?.begins ?? 0;
  }

  /**
   * A journaled step around `run`: replayed when finished, else begun, run and finished.
   * (The tool pipeline splits this across two steps, tools/steps/journal-steps.ts; `ask` uses it whole.)
   * `ready` runs only when the step is to run live, before its begin receipt: what it throws
   * (a model with no key) means the step could not start, so nothing is recorded and a
   * later resume that can run it does.
   */
  async step<T>(
    stepId: string,
    kind: StepKind,
    name: string,
    canonicalInput: string,
    run: (attempt: number) => Promise<T>,
    ready?: () => void,
    /** Checks a replayed value (data read back from the journal) before it is answered; throws when it is not one Luma writes. */
    checkReplayed?: (value: unknown) => void,
    /** What the step was asked, and (given its value) what it answered besides it: the receipts' detail. */
    detail?: (value?: T) => StepDetail,
  ): Promise<T> {
    const digest = this.digest(name, canonicalInput);
    const row = this.lookup(stepId, kind, name, digest);
    if (this.isFinished(row)) {
      const value = this.replay(row);
      checkReplayed?.(value);
      return value as T;
    }
    ready?.();
    const attempt = (row?.begins ?? 0) + 1;
    await this.begin(stepId, kind, name, digest, detail?.());
    const startedAt = performance.now();
    let value: T;
    try {
      value = await run(attempt);
    } catch (e) {
      if (!isRunStop(e)) await this.finish(stepId, kind, name, digest, outcomeOfError(e), attempt, startedAt, detail?.());
      throw e;
    }
    await this.finish(stepId, kind, name, digest, { ok: value }, attempt, startedAt, detail?.(value));
    return value;
  }

  /** `now()`: the recorded reading on a resume, else the clock's, recorded (its write is queued). */
  now(): Date {
    const stepId = `now#${++this.nowCount}`;
    const digest = this.digest("now", "null");
    const row = this.lookup(stepId, "now", "now", digest);
    if (this.isFinished(row)) {
      const recorded = this.replay(row);
      const at = typeof recorded === "string" ? new Date(recorded) : undefined;
      if (at !== undefined && !Number.isNaN(at.getTime())) return at;
      throw journalErrors.malformed(this.backend.shown, this.runId, stepId, "not a time");
    }
    const at = new Date(this.clock());
    this.finish(stepId, "now", "now", digest, { ok: at.toISOString() }, 1, performance.now()).catch(() => {});
    return at;
  }

  approval(stepId: string): ApprovalRow | undefined {
    return this.approvalRows.get(stepId);
  }

  /**
   * Records the call as waiting for a person. `wants`: the value they must supply with it (a
   * client tool's answer, an approval's note) and its JSON Schema, kept beside the arguments
   * so that `luma runs answer` / `luma approve --json` can judge a value without the program.
   */
  requestApproval(stepId: string, tool: string, digest: string, argsPreview: string, wants?: PendingWants): Promise<void> {
    const shown = wants === undefined ? argsPreview : { args: argsPreview, ...wants };
    const row = { runId: this.runId, stepId, tool, digest, args: this.codec.encode(this.runId, stepId + "\u0000args", shown), requestedAt: this.clock() };
    this.approvalRows.set(stepId, { ...row, decision: null, sealedDecision: null, decidedAt: null });
    return this.write(() => this.backend.requestApproval(this.runId, this.token, row));
  }

  /** Waits for every queued write (a `now()` receipt), then ends the lease with the run's status. */
  async end(status: RunStatus): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    try {
      await this.write(() => undefined);
    } finally {
      try {
        if (!this.lost) await this.releaseAs(status);
      } finally {
        this.stopOffThread?.();
      }
    }
  }

  private async releaseAs(status: RunStatus): Promise<void> {
    try {
      await this.backend.release(this.runId, this.token, status, this.clock());
    } catch (e) {
      throw journalErrors.failed(this.backend.shown, e);
    }
  }
}

const emptyRow = (stepId: string, kind: StepKind, name: string, digest: string): StepRow => ({
  stepId,
  kind,
  name,
  digest,
  status: "begun",
  begins: 0,
  attempts: 0,
  output: null,
  startedAt: null,
  finishedAt: null,
  durationMs: null,
  seq: 0,
});

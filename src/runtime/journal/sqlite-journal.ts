/**
 * The SQLite journal (`"journal": { "backend": "sqlite", "path": … }`, or `--journal PATH`):
 * one database file for the runs of one machine, through Bun's built-in SQLite.
 *
 *   luma_journal_meta       the header (store-header.ts, shared with the idempotency stores)
 *   luma_journal_runs       one row per run: status and the lease (owner, token, expiry)
 *   luma_journal_steps      one row per step: its begin and finish receipts
 *   luma_journal_approvals  one row per call that waited for a person
 *   luma_journal_evals      one row per eval of a `luma eval` (its report, for `luma ui`)
 *
 * Every receipt is its own transaction. A finish receipt commits with `synchronous = FULL`
 * (the WAL is fsynced): once the run goes on, its result must survive a power loss. A begin
 * receipt commits with `synchronous = NORMAL` (in the WAL, not fsynced): it survives the
 * process being killed — what resumes are for — and a begin lost to a power cut changes no
 * outcome: a step without a finish receipt runs again either way; only its attempt count
 * would be one lower. (The next fsync makes it durable as well.) Fencing is in the same statement: a write whose token no
 * longer holds the run's lease changes no row, and the journal stops the run (LeaseLost).
 * WAL lets `luma runs` read beside a writer; `busy_timeout` makes writers queue.
 */
import { Database } from "bun:sqlite";
import { existsSync, linkSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { LumaError, startupError } from "../../diagnostics/luma-error";
import { journalDamaged } from "./journal-integrity";
import {
  CONTINUABLE,
  LeaseLost,
  type AcquireRequest,
  type Acquired,
  type ApprovalRow,
  type Decision,
  type EvalRow,
  type JournalBackend,
  type RunRow,
  type RunStatus,
  type StepRow,
} from "./journal-backend";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS luma_journal_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS luma_journal_runs (
  run_id TEXT PRIMARY KEY, program TEXT NOT NULL, status TEXT NOT NULL, owner TEXT, token TEXT,
  lease_until INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, steps INTEGER
);
CREATE TABLE IF NOT EXISTS luma_journal_steps (
  run_id TEXT NOT NULL, step_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
  digest TEXT NOT NULL, status TEXT NOT NULL, begins INTEGER NOT NULL, attempts INTEGER NOT NULL, output TEXT,
  started_at INTEGER, finished_at INTEGER, duration_ms REAL, detail TEXT, PRIMARY KEY (run_id, step_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS luma_journal_approvals (
  run_id TEXT NOT NULL, step_id TEXT NOT NULL, tool TEXT NOT NULL, digest TEXT NOT NULL, args TEXT NOT NULL,
  decision TEXT, decided_digest TEXT, requested_at INTEGER NOT NULL, decided_at INTEGER, PRIMARY KEY (run_id, step_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS luma_journal_evals (eval_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, report TEXT NOT NULL);
`;

const STEP_COLUMNS = `step_id AS stepId, kind, name, digest, status, begins, attempts, output, started_at AS startedAt,
  finished_at AS finishedAt, duration_ms AS durationMs, seq, detail`;
const APPROVAL_COLUMNS = `run_id AS runId, step_id AS stepId, tool, digest, args, decision, decided_digest AS sealedDecision,
  requested_at AS requestedAt, decided_at AS decidedAt`;

/**
 * A new journal: schema written in a file beside `path`, then linked to `path` — which fails
 * when another process got there first (theirs is used). Never an empty file at `path`.
 */
const createWhole = (path: string): void => {
  const tmp = `${path}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.new`;
  try {
    // The rollback journal (not WAL, which open() turns on): once closed, everything is in the one file linked.
    const db = new Database(tmp, { create: true });
    db.exec(SCHEMA);
    db.close();
    try {
      linkSync(tmp, path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return;
      // A file system without hard links: a rename (which would replace a journal made meanwhile, so only when there is none).
      if (existsSync(path)) return;
      renameSync(tmp, path);
    }
  } finally {
    for (const f of [tmp, `${tmp}-journal`]) rmSync(f, { force: true });
  }
};

export class SqliteJournal implements JournalBackend {
  private readonly fenced;

  private constructor(
    private readonly db: Database,
    readonly shown: string,
  ) {
    // The token check and the write share one transaction: nothing lands once the lease is gone.
    this.fenced = db.transaction((runId: string, token: string, write: () => void) => {
      const held = db.query<{ one: number }, [string, string]>("SELECT 1 AS one FROM luma_journal_runs WHERE run_id = ? AND token = ?").get(runId, token);
      if (held === null) throw new LeaseLost(runId);
      write();
    }).immediate;
  }

  /**
   * Opens the journal, creating it when the path does not exist; its failures are startup
   * errors. A new journal is made whole in a file of its own and linked into place, so a
   * journal path that exists always holds the schema: one that is empty (truncated to 0
   * bytes) or holds no journal tables lost its runs, and is refused rather than silently
   * started afresh — that would run every recorded side effect again.
   */
  static open(path: string, shown: string): SqliteJournal {
    let db: Database;
    try {
      mkdirSync(dirname(path), { recursive: true });
      if (!existsSync(path)) createWhole(path);
      if (statSync(path).size === 0) throw journalDamaged(shown, "is an empty file (0 bytes): a journal truncated, its runs lost (remove the file to start a new journal)");
      db = new Database(path, { create: false });
      db.exec("PRAGMA busy_timeout = 10000");
      if (db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'luma_journal_runs'").get() === null) {
        db.close();
        throw journalDamaged(shown, "is a SQLite database without a journal's tables (not a Luma journal, or its runs were dropped)");
      }
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec(SCHEMA);
      const columns = db.query<{ name: string }, []>("PRAGMA table_info(luma_journal_runs)").all();
      if (!columns.some((c) => c.name === "steps")) db.exec("ALTER TABLE luma_journal_runs ADD COLUMN steps INTEGER");
      // Journals written before steps kept their detail (what `luma ui` shows of a call's input and an ask's messages).
      const stepColumns = db.query<{ name: string }, []>("PRAGMA table_info(luma_journal_steps)").all();
      if (!stepColumns.some((c) => c.name === "detail")) db.exec("ALTER TABLE luma_journal_steps ADD COLUMN detail TEXT");
    } catch (e) {
      if (e instanceof LumaError) throw e;
      throw startupError(`Journal ${shown}: cannot open it as a SQLite database: ${(e as Error).message}`, { catalogCode: "E0905" });
    }
    return new SqliteJournal(db, shown);
  }

  readHeader(): string | undefined {
    return this.db.query<{ value: string }, []>("SELECT value FROM luma_journal_meta WHERE name = 'header'").get()?.value;
  }

  writeHeader(text: string): void {
    this.db.query("INSERT OR REPLACE INTO luma_journal_meta (name, value) VALUES ('header', ?)").run(text);
  }

  /** Whether the journal holds any step or approval yet (a plain journal with rows cannot be sealed later). */
  isEmpty(): boolean {
    return this.db.query("SELECT 1 FROM luma_journal_steps LIMIT 1").get() === null;
  }

  acquire(req: AcquireRequest): Acquired {
    return this.db.transaction((): Acquired => {
      const row = this.db
        .query<{ owner: string | null; token: string | null; lease_until: number; status: RunStatus }, [string]>("SELECT owner, token, lease_until, status FROM luma_journal_runs WHERE run_id = ?")
        .get(req.runId);
      const until = req.now + req.leaseMs;
      if (row === null && req.continuing) return { kind: "refused", status: null };
      if (row === null) {
        this.db
          .query("INSERT INTO luma_journal_runs (run_id, program, status, owner, token, lease_until, created_at, updated_at, steps) VALUES (?, ?, 'running', ?, ?, ?, ?, ?, 0)")
          .run(req.runId, req.program, req.owner, req.token, until, req.now, req.now);
        return { kind: "acquired", token: req.token, created: true };
      }
      // Within its lease a holder keeps the run unless it is known dead; past it, only while it runs here.
      const lapsed = row.lease_until <= req.now;
      if (row.token !== null && (lapsed ? req.holderRuns(row.token) : !(row.owner !== null && req.ownerDead(row.owner)))) {
        return { kind: "busy", owner: row.owner, leaseUntil: row.lease_until };
      }
      if (req.continuing && !CONTINUABLE.has(row.status)) return { kind: "refused", status: row.status };
      this.db
        .query("UPDATE luma_journal_runs SET status = 'running', owner = ?, token = ?, lease_until = ?, updated_at = ? WHERE run_id = ?")
        .run(req.owner, req.token, until, req.now, req.runId);
      return { kind: "acquired", token: req.token, created: false };
    }).immediate();
  }

  renew(runId: string, token: string, until: number): boolean {
    return this.db.query("UPDATE luma_journal_runs SET lease_until = ? WHERE run_id = ? AND token = ?").run(until, runId, token).changes === 1;
  }

  release(runId: string, token: string, status: RunStatus, now: number): void {
    this.durable(() =>
      this.db
        .query("UPDATE luma_journal_runs SET status = ?, owner = NULL, token = NULL, lease_until = 0, updated_at = ? WHERE run_id = ? AND token = ?")
        .run(status, now, runId, token),
    );
  }

  steps(runId: string): StepRow[] {
    return this.db.query<StepRow, [string]>(`SELECT ${STEP_COLUMNS} FROM luma_journal_steps WHERE run_id = ? ORDER BY seq`).all(runId);
  }

  stepCount(runId: string): number | null {
    return this.db.query<{ steps: number | null }, [string]>("SELECT steps FROM luma_journal_runs WHERE run_id = ?").get(runId)?.steps ?? null;
  }

  /** Inside a fenced write: `write` upserts the step's row; a new row counts one more step in the run's row. */
  private counted(runId: string, stepId: string, write: () => void): void {
    const known = this.db.query("SELECT 1 FROM luma_journal_steps WHERE run_id = ? AND step_id = ?").get(runId, stepId) !== null;
    write();
    if (known) return;
    // A run recorded before the journal counted starts counting from the rows it has.
    this.db
      .query("UPDATE luma_journal_runs SET steps = COALESCE(steps + 1, (SELECT COUNT(*) FROM luma_journal_steps WHERE run_id = ?1)) WHERE run_id = ?1")
      .run(runId);
  }

  begin(runId: string, token: string, r: Pick<StepRow, "stepId" | "kind" | "name" | "digest" | "startedAt" | "detail">): void {
    this.fenced(runId, token, () => this.counted(runId, r.stepId, () => {
      this.db
        .query(
          `INSERT INTO luma_journal_steps (run_id, step_id, seq, kind, name, digest, status, begins, attempts, started_at, detail)
           VALUES (?1, ?2, (SELECT COUNT(*) FROM luma_journal_steps WHERE run_id = ?1), ?3, ?4, ?5, 'begun', 1, 0, ?6, ?7)
           ON CONFLICT (run_id, step_id) DO UPDATE SET begins = begins + 1, started_at = excluded.started_at, detail = COALESCE(excluded.detail, detail)`,
        )
        .run(runId, r.stepId, r.kind, r.name, r.digest, r.startedAt, r.detail ?? null);
    }));
  }

  /** Commits `op` with the WAL fsynced: finish receipts, approvals, decisions, a run's end. */
  private durable<T>(op: () => T): T {
    this.db.exec("PRAGMA synchronous = FULL");
    try {
      return op();
    } finally {
      this.db.exec("PRAGMA synchronous = NORMAL");
    }
  }

  finish(runId: string, token: string, r: Omit<StepRow, "seq" | "begins">): void {
    this.durable(() => this.finishFenced(runId, token, r));
  }

  private finishFenced(runId: string, token: string, r: Omit<StepRow, "seq" | "begins">): void {
    this.fenced(runId, token, () => this.counted(runId, r.stepId, () => {
      this.db
        .query(
          `INSERT INTO luma_journal_steps (run_id, step_id, seq, kind, name, digest, status, begins, attempts, output, started_at, finished_at, duration_ms, detail)
           VALUES (?1, ?2, (SELECT COUNT(*) FROM luma_journal_steps WHERE run_id = ?1), ?3, ?4, ?5, ?6, 0, ?7, ?8, ?9, ?10, ?11, ?12)
           ON CONFLICT (run_id, step_id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts,
             output = excluded.output, finished_at = excluded.finished_at, duration_ms = excluded.duration_ms, detail = COALESCE(excluded.detail, detail)`,
        )
        .run(runId, r.stepId, r.kind, r.name, r.digest, r.status, r.attempts, r.output, r.startedAt, r.finishedAt, r.durationMs, r.detail ?? null);
    }));
  }

  approvals(runId: string | undefined): ApprovalRow[] {
    return runId === undefined
      ? this.db.query<ApprovalRow, []>(`SELECT ${APPROVAL_COLUMNS} FROM luma_journal_approvals ORDER BY requested_at`).all()
      : this.db.query<ApprovalRow, [string]>(`SELECT ${APPROVAL_COLUMNS} FROM luma_journal_approvals WHERE run_id = ? ORDER BY requested_at`).all(runId);
  }

  requestApproval(runId: string, token: string, r: Omit<ApprovalRow, "decision" | "sealedDecision" | "decidedAt">): void {
    this.durable(() => this.requestFenced(runId, token, r));
  }

  private requestFenced(runId: string, token: string, r: Omit<ApprovalRow, "decision" | "sealedDecision" | "decidedAt">): void {
    this.fenced(runId, token, () => {
      // A new request for the step (another input) forgets the old decision.
      this.db
        .query(
          `INSERT OR REPLACE INTO luma_journal_approvals (run_id, step_id, tool, digest, args, decision, decided_digest, requested_at, decided_at)
           VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, NULL)`,
        )
        .run(runId, r.stepId, r.tool, r.digest, r.args, r.requestedAt);
    });
  }

  decide(runId: string, stepId: string, decision: Decision, sealed: string, now: number): boolean {
    return this.durable(
      () =>
        this.db
          .query("UPDATE luma_journal_approvals SET decision = ?, decided_digest = ?, decided_at = ? WHERE run_id = ? AND step_id = ? AND decision IS NULL")
          .run(decision, sealed, now, runId, stepId).changes === 1,
    );
  }

  runs(): RunRow[] {
    return this.db
      .query<RunRow, []>(
        `SELECT run_id AS runId, program, status, owner, lease_until AS leaseUntil, created_at AS createdAt, updated_at AS updatedAt
         FROM luma_journal_runs ORDER BY created_at, run_id`,
      )
      .all();
  }

  recordEval(row: EvalRow): void {
    this.db.query("INSERT OR REPLACE INTO luma_journal_evals (eval_id, created_at, report) VALUES (?, ?, ?)").run(row.evalId, row.createdAt, row.report);
  }

  evals(): EvalRow[] {
    return this.db.query<EvalRow, []>("SELECT eval_id AS evalId, created_at AS createdAt, report FROM luma_journal_evals ORDER BY created_at, eval_id").all();
  }

  close(): void {
    this.db.close();
  }
}

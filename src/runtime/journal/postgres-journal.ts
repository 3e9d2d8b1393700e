/**
 * The PostgreSQL journal (`"journal": { "backend": "postgres", "url_env": … }`): runs shared
 * by workers on many machines, through Bun's built-in client. The same four tables as the
 * SQLite journal (sqlite-journal.ts), named `<table>_meta`, `_runs`, `_steps`, `_approvals`
 * (`table` defaults to luma_journal), created when missing under an advisory lock.
 *
 * Fencing is one statement per receipt: the write's CTE/WHERE names the run's token, so a
 * worker whose lease was taken over writes nothing and hears so (LeaseLost). A committed
 * statement is durable (PostgreSQL fsyncs its WAL on commit by default).
 */
import type { SQL } from "bun";
import { callFailure, openFailure, type StoreConnection, type StoreRole } from "../stores/store-connection";
import { OffThreadRenewer } from "../stores/off-thread-renewal";
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

export const DEFAULT_PG_JOURNAL_TABLE = "luma_journal";
const TABLE_NAME = /^[a-z_][a-z0-9_]{0,40}$/;

const ddl = (t: string) => [
  `CREATE TABLE IF NOT EXISTS ${t}_meta (name text PRIMARY KEY, value text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${t}_runs (run_id text PRIMARY KEY, program text NOT NULL, status text NOT NULL, owner text, token text,
     lease_until bigint NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL, steps bigint)`,
  `CREATE TABLE IF NOT EXISTS ${t}_steps (run_id text NOT NULL, step_id text NOT NULL, seq bigserial, kind text NOT NULL, name text NOT NULL,
     digest text NOT NULL, status text NOT NULL, begins integer NOT NULL, attempts integer NOT NULL, output text,
     started_at bigint, finished_at bigint, duration_ms double precision, detail text, PRIMARY KEY (run_id, step_id))`,
  `CREATE TABLE IF NOT EXISTS ${t}_approvals (run_id text NOT NULL, step_id text NOT NULL, tool text NOT NULL, digest text NOT NULL,
     args text NOT NULL, decision text, decided_digest text, requested_at bigint NOT NULL, decided_at bigint, PRIMARY KEY (run_id, step_id))`,
  `CREATE TABLE IF NOT EXISTS ${t}_evals (eval_id text PRIMARY KEY, created_at bigint NOT NULL, report text NOT NULL)`,
];

/** The stores' connection errors (credentials redacted), worded for the journal, with its catalog codes. */
export const JOURNAL_ROLE: StoreRole = { setting: "journal", label: "Journal", settingsCode: "E0906", openCode: "E0907" };

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export class PostgresJournal implements JournalBackend {
  readonly shown: string;

  private constructor(
    private readonly sql: SQL,
    private readonly t: string,
    private readonly c: StoreConnection,
  ) {
    this.shown = c.shown;
  }

  static async open(c: StoreConnection, table = DEFAULT_PG_JOURNAL_TABLE): Promise<PostgresJournal> {
    if (!TABLE_NAME.test(table)) throw openFailure(c, new Error(`invalid journal table name ${JSON.stringify(table)}`));
    let sql: SQL | undefined;
    try {
      sql = new Bun.SQL({ url: c.url, max: 2, connectionTimeout: 10 });
      await sql.begin(async (tx) => {
        await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext('luma journal ${table}'))`);
        for (const s of ddl(table)) await tx.unsafe(s);
        // Journals made before runs counted their steps (the gap check, journal-integrity.ts); checked first, as
        // ALTER TABLE takes the table's strongest lock even when there is nothing to add.
        const counted = await tx.unsafe(`SELECT 1 FROM pg_attribute WHERE attrelid = '${table}_runs'::regclass AND attname = 'steps' AND NOT attisdropped`);
        if (counted.length === 0) await tx.unsafe(`ALTER TABLE ${table}_runs ADD COLUMN steps bigint`);
        // Journals written before steps kept their detail (what `luma ui` shows of a call's input and an ask's messages).
        const detailed = await tx.unsafe(`SELECT 1 FROM pg_attribute WHERE attrelid = '${table}_steps'::regclass AND attname = 'detail' AND NOT attisdropped`);
        if (detailed.length === 0) await tx.unsafe(`ALTER TABLE ${table}_steps ADD COLUMN detail text`);
      });
      return new PostgresJournal(sql, table, c);
    } catch (e) {
      await sql?.close().catch(() => {});
      throw openFailure(c, e);
    }
  }

  private async q<T>(text: string, params: unknown[] = []): Promise<T[]> {
    try {
      return (await this.sql.unsafe(text, params as never[])) as T[];
    } catch (e) {
      throw callFailure(this.c, e, false);
    }
  }

  async readHeader(): Promise<string | undefined> {
    return (await this.q<{ value: string }>(`SELECT value FROM ${this.t}_meta WHERE name = 'header'`))[0]?.value;
  }

  async writeHeader(text: string): Promise<void> {
    await this.q(`INSERT INTO ${this.t}_meta (name, value) VALUES ('header', $1) ON CONFLICT (name) DO NOTHING`, [text]);
  }

  async isEmpty(): Promise<boolean> {
    return (await this.q(`SELECT 1 FROM ${this.t}_steps LIMIT 1`)).length === 0;
  }

  async acquire(req: AcquireRequest): Promise<Acquired> {
    const until = req.now + req.leaseMs;
    if (!req.continuing) {
      const created = await this.q(
        `INSERT INTO ${this.t}_runs (run_id, program, status, owner, token, lease_until, created_at, updated_at, steps)
         VALUES ($1, $2, 'running', $3, $4, $5, $6, $6, 0) ON CONFLICT (run_id) DO NOTHING RETURNING 1`,
        [req.runId, req.program, req.owner, req.token, until, req.now],
      );
      if (created.length > 0) return { kind: "acquired", token: req.token, created: true };
    }
    const rows = await this.q<{ owner: string | null; token: string | null; lease_until: string; status: RunStatus }>(
      `SELECT owner, token, lease_until, status FROM ${this.t}_runs WHERE run_id = $1`,
      [req.runId],
    );
    const row = rows[0];
    if (row === undefined && req.continuing) return { kind: "refused", status: null };
    // Within its lease a holder keeps the run unless it is known dead; past it, only while it runs here.
    const lapsed = row !== undefined && Number(row.lease_until) <= req.now;
    const free =
      row === undefined || row.token === null || (lapsed ? !req.holderRuns(row.token) : row.owner !== null && req.ownerDead(row.owner));
    if (!free) return { kind: "busy", owner: row.owner, leaseUntil: Number(row.lease_until) };
    if (req.continuing && !CONTINUABLE.has(row.status)) return { kind: "refused", status: row.status };
    // Take it only if it is still as we saw it: of two takers, one wins.
    const taken = await this.q(
      `UPDATE ${this.t}_runs SET status = 'running', owner = $2, token = $3, lease_until = $4, updated_at = $5
       WHERE run_id = $1 AND token IS NOT DISTINCT FROM $6 RETURNING 1`,
      [req.runId, req.owner, req.token, until, req.now, row?.token ?? null],
    );
    if (taken.length > 0) return { kind: "acquired", token: req.token, created: false };
    return { kind: "busy", owner: null, leaseUntil: until };
  }

  renewOffThread(runId: string, token: string, leaseMs: number): () => void {
    const text = `UPDATE ${this.t}_runs SET lease_until = $3 WHERE run_id = $1 AND token = $2 RETURNING 1`;
    const renewer = new OffThreadRenewer({ kind: "postgres", url: this.c.url, text, args: [{ arg: 0 }, { arg: 1 }, { nowPlusArg: 2 }] });
    return renewer.keep([runId, token, leaseMs], Math.max(10, leaseMs / 3));
  }

  async renew(runId: string, token: string, until: number): Promise<boolean> {
    return (await this.q(`UPDATE ${this.t}_runs SET lease_until = $3 WHERE run_id = $1 AND token = $2 RETURNING 1`, [runId, token, until])).length > 0;
  }

  async release(runId: string, token: string, status: RunStatus, now: number): Promise<void> {
    await this.q(
      `UPDATE ${this.t}_runs SET status = $3, owner = NULL, token = NULL, lease_until = 0, updated_at = $4 WHERE run_id = $1 AND token = $2`,
      [runId, token, status, now],
    );
  }

  async steps(runId: string): Promise<StepRow[]> {
    const rows = await this.q<Record<string, unknown>>(`SELECT * FROM ${this.t}_steps WHERE run_id = $1 ORDER BY seq`, [runId]);
    return rows.map((r) => ({
      stepId: r.step_id as string,
      kind: r.kind as StepRow["kind"],
      name: r.name as string,
      digest: r.digest as string,
      status: r.status as StepRow["status"],
      begins: Number(r.begins),
      attempts: Number(r.attempts),
      output: (r.output as string | null) ?? null,
      startedAt: num(r.started_at),
      finishedAt: num(r.finished_at),
      durationMs: num(r.duration_ms),
      seq: Number(r.seq),
      detail: (r.detail as string | null) ?? null,
    }));
  }

  async stepCount(runId: string): Promise<number | null> {
    return num((await this.q<{ steps: unknown }>(`SELECT steps FROM ${this.t}_runs WHERE run_id = $1`, [runId]))[0]?.steps);
  }

  /**
   * A step receipt (`upsert`: an INSERT … ON CONFLICT … RETURNING, fenced by its SELECT) in
   * one statement with the run's step count: a row it created (xmax = 0) counts one more. A
   * run recorded before the journal counted starts from the rows it has (the statement's
   * snapshot does not see the new row: + 1).
   */
  private async receipt(runId: string, token: string, upsert: string, params: unknown[]): Promise<void> {
    await this.fenced(
      runId,
      token,
      `WITH w AS (${upsert} RETURNING (xmax = 0) AS created),
       c AS (UPDATE ${this.t}_runs SET steps = COALESCE(steps, (SELECT count(*) FROM ${this.t}_steps WHERE run_id = $1)) + 1
             WHERE run_id = $1 AND EXISTS (SELECT 1 FROM w WHERE created) RETURNING 1)
       SELECT 1 FROM w`,
      params,
    );
  }

  private async fenced(runId: string, token: string, text: string, params: unknown[]): Promise<void> {
    // $1 run, $2 token: the write happens only while the token holds the lease.
    const rows = await this.q(text, [runId, token, ...params]);
    if (rows.length === 0) throw new LeaseLost(runId);
  }

  async begin(runId: string, token: string, r: Pick<StepRow, "stepId" | "kind" | "name" | "digest" | "startedAt" | "detail">): Promise<void> {
    await this.receipt(
      runId,
      token,
      `INSERT INTO ${this.t}_steps AS s (run_id, step_id, kind, name, digest, status, begins, attempts, started_at, detail)
       SELECT $1, $3, $4, $5, $6, 'begun', 1, 0, $7, $8 FROM ${this.t}_runs WHERE run_id = $1 AND token = $2
       ON CONFLICT (run_id, step_id) DO UPDATE SET begins = s.begins + 1, started_at = EXCLUDED.started_at, detail = COALESCE(EXCLUDED.detail, s.detail)`,
      [r.stepId, r.kind, r.name, r.digest, r.startedAt, r.detail ?? null],
    );
  }

  async finish(runId: string, token: string, r: Omit<StepRow, "seq" | "begins">): Promise<void> {
    await this.receipt(
      runId,
      token,
      `INSERT INTO ${this.t}_steps AS s (run_id, step_id, kind, name, digest, status, begins, attempts, output, started_at, finished_at, duration_ms, detail)
       SELECT $1, $3, $4, $5, $6, $7, 0, $8, $9, $10, $11, $12, $13 FROM ${this.t}_runs WHERE run_id = $1 AND token = $2
       ON CONFLICT (run_id, step_id) DO UPDATE SET status = EXCLUDED.status, attempts = EXCLUDED.attempts, output = EXCLUDED.output,
         finished_at = EXCLUDED.finished_at, duration_ms = EXCLUDED.duration_ms, detail = COALESCE(EXCLUDED.detail, s.detail)`,
      [r.stepId, r.kind, r.name, r.digest, r.status, r.attempts, r.output, r.startedAt, r.finishedAt, r.durationMs, r.detail ?? null],
    );
  }

  async approvals(runId: string | undefined): Promise<ApprovalRow[]> {
    const rows = await this.q<Record<string, unknown>>(
      `SELECT * FROM ${this.t}_approvals ${runId === undefined ? "" : "WHERE run_id = $1"} ORDER BY requested_at`,
      runId === undefined ? [] : [runId],
    );
    return rows.map((r) => ({
      runId: r.run_id as string,
      stepId: r.step_id as string,
      tool: r.tool as string,
      digest: r.digest as string,
      args: r.args as string,
      decision: (r.decision as Decision | null) ?? null,
      sealedDecision: (r.decided_digest as string | null) ?? null,
      requestedAt: Number(r.requested_at),
      decidedAt: num(r.decided_at),
    }));
  }

  async requestApproval(runId: string, token: string, r: Omit<ApprovalRow, "decision" | "sealedDecision" | "decidedAt">): Promise<void> {
    await this.fenced(
      runId,
      token,
      `INSERT INTO ${this.t}_approvals (run_id, step_id, tool, digest, args, decision, decided_digest, requested_at, decided_at)
       SELECT $1, $3, $4, $5, $6, NULL, NULL, $7, NULL FROM ${this.t}_runs WHERE run_id = $1 AND token = $2
       ON CONFLICT (run_id, step_id) DO UPDATE SET tool = EXCLUDED.tool, digest = EXCLUDED.digest, args = EXCLUDED.args,
         decision = NULL, decided_digest = NULL, requested_at = EXCLUDED.requested_at, decided_at = NULL RETURNING 1`,
      [r.stepId, r.tool, r.digest, r.args, r.requestedAt],
    );
  }

  async decide(runId: string, stepId: string, decision: Decision, sealed: string, now: number): Promise<boolean> {
    const rows = await this.q(
      `UPDATE ${this.t}_approvals SET decision = $3, decided_digest = $4, decided_at = $5 WHERE run_id = $1 AND step_id = $2 AND decision IS NULL RETURNING 1`,
      [runId, stepId, decision, sealed, now],
    );
    return rows.length > 0;
  }

  async runs(): Promise<RunRow[]> {
    const rows = await this.q<Record<string, unknown>>(`SELECT * FROM ${this.t}_runs ORDER BY created_at, run_id`);
    return rows.map((r) => ({
      runId: r.run_id as string,
      program: r.program as string,
      status: r.status as RunStatus,
      owner: (r.owner as string | null) ?? null,
      leaseUntil: Number(r.lease_until),
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    }));
  }

  async recordEval(row: EvalRow): Promise<void> {
    await this.q(`INSERT INTO ${this.t}_evals (eval_id, created_at, report) VALUES ($1, $2, $3) ON CONFLICT (eval_id) DO UPDATE SET report = EXCLUDED.report`, [row.evalId, row.createdAt, row.report]);
  }

  async evals(): Promise<EvalRow[]> {
    const rows = await this.q<Record<string, unknown>>(`SELECT eval_id, created_at, report FROM ${this.t}_evals ORDER BY created_at, eval_id`);
    return rows.map((r) => ({ evalId: r.eval_id as string, createdAt: Number(r.created_at), report: r.report as string }));
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}

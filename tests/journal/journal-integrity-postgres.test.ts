/**
 * Hardening round 3, item 6 on the PostgreSQL journal: the same refusals as on SQLite
 * (journal-integrity.test.ts) through the real server (LUMA_TEST_PG_URL) and the real
 * `dist/luma` — a sealed approval forged or copied by SQL approves nothing, a deleted step
 * row stops the resume (E0908), an edited output meets the tool's schema, a malformed row
 * names the journal — and a journal made before runs counted their steps still resumes.
 * Each test has tables of its own (`table`), dropped afterwards.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { requireService } from "../datasources/service-env";
import { approvalProgram, JournalProject } from "./journal-project";

const PG_URL = requireService("LUMA_TEST_PG_URL", ".ci/services/postgres.sh");
const KEY = { LUMA_IDEMPOTENCY_KEY: "journal-integrity passphrase" };
const env = { LUMA_TEST_PG_URL: PG_URL, ...KEY };
const tables: string[] = [];

const pgProject = (program: string, encryption?: string) => {
  const table = `ji_${process.pid}_${Date.now().toString(36)}_${tables.length}`;
  tables.push(table);
  const p = new JournalProject(program, { journal: { backend: "postgres", url_env: "LUMA_TEST_PG_URL", table, ...(encryption ? { encryption } : {}) } });
  return { p, t: table };
};

const sql = async (text: string, ...params: unknown[]): Promise<Record<string, unknown>[]> => {
  const db = new Bun.SQL(PG_URL!);
  try {
    return (await db.unsafe(text, params as never[])) as Record<string, unknown>[];
  } finally {
    await db.close();
  }
};

afterAll(async () => {
  if (!PG_URL) return;
  for (const t of tables) for (const s of ["meta", "runs", "steps", "approvals"]) await sql(`DROP TABLE IF EXISTS ${t}_${s}`);
});

const THREE = `
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
a = tool effect({ n: 1 })
b = tool effect({ n: 2 })
c = tool effect({ n: 3 })
print("sum", a.done + b.done + c.done)
`;

describe.skipIf(!PG_URL)("Journal integrity on PostgreSQL (hardening 3, item 6)", () => {
  test("an approval set by SQL, or copied from another run with the same input, approves nothing in an encrypted journal", async () => {
    const { p, t } = pgProject(approvalProgram(4), "aes-256-gcm");
    expect((await p.runFlow("real", [], env)).exitCode).toBe(75);
    expect((await p.runFlow("forged", [], env)).exitCode).toBe(75);
    expect((await p.runFlow("copied", [], env)).exitCode).toBe(75);
    expect((await p.run(["approve", "--run-id", "real"], env)).exitCode).toBe(0);
    const [real] = await sql(`SELECT digest, decision, decided_digest, requested_at FROM ${t}_approvals WHERE run_id = 'real'`);
    await sql(`UPDATE ${t}_approvals SET decision = 'approved', decided_digest = digest, decided_at = 1 WHERE run_id = 'forged'`);
    await sql(`UPDATE ${t}_approvals SET decision = $1, decided_digest = $2, requested_at = $3, decided_at = 1 WHERE run_id = 'copied'`, real.decision, real.decided_digest, real.requested_at);
    expect((await p.runFlow("forged", [], env)).exitCode).toBe(75);
    expect((await p.runFlow("copied", [], env)).exitCode).toBe(75);
    expect(p.lines("calls.log")).toEqual([]);
    expect((await p.runFlow("real", [], env)).stdout).toBe("got 4\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([4]);
  }, 30_000);

  test("a finished step's row deleted: the resume stops with E0908 naming the journal; no side effect runs again", async () => {
    const { p, t } = pgProject(THREE);
    expect((await p.runFlow("g1", [], env)).stdout).toBe("sum 6\n");
    await sql(`DELETE FROM ${t}_steps WHERE run_id = 'g1' AND step_id = 'main/1'`);
    const r = await p.runFlow("g1", [], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^Error: Journal postgres:\/\/\S+ has a gap in run g1: its receipts recorded 3 steps, 2 are there /);
    expect(r.stderr).toContain("= code E0908");
    expect(p.lines("calls.log").length).toBe(3);
  }, 30_000);

  test("an edited output of the wrong type fails the output schema on replay; a malformed row names the journal", async () => {
    const { p, t } = pgProject(THREE);
    expect((await p.runFlow("e1", [], env)).exitCode).toBe(0);
    await sql(`UPDATE ${t}_steps SET output = '{"ok":{"done":"2"}}' WHERE run_id = 'e1' AND step_id = 'main/2'`);
    const edited = await p.runFlow("e1", [], env);
    expect(edited.exitCode).toBe(1);
    expect(edited.stderr).toMatch(/^Error: \[TOOL_OUTPUT_INVALID\] Journal postgres:\/\/\S+: the recorded output of step main\/2 of run e1 fails tool 'effect''s output schema/);
    await sql(`UPDATE ${t}_steps SET output = '{' WHERE run_id = 'e1' AND step_id = 'main/2'`);
    const malformed = await p.runFlow("e1", [], env);
    expect(malformed.exitCode).toBe(1);
    expect(malformed.stderr).toMatch(/^Error: \[RUNTIME_ERROR\] Journal postgres:\/\/\S+: the record of step main\/2 of run e1 is malformed \(not the JSON Luma writes\)/);
    expect(p.lines("calls.log").length).toBe(3);
  }, 30_000);

  test("a journal whose runs table predates the step count: opened (the column added), its runs resume, and from then on a gap is caught", async () => {
    const { p, t } = pgProject(THREE);
    // A run halfway, as an older Luma left it: tables without the count column.
    await sql(`CREATE TABLE ${t}_runs (run_id text PRIMARY KEY, program text NOT NULL, status text NOT NULL, owner text, token text,
      lease_until bigint NOT NULL, created_at bigint NOT NULL, updated_at bigint NOT NULL)`);
    expect((await p.runFlow("old", [], { ...env, LUMA_TEST_CRASH_AT: "journal-after-finish:1" })).signal).toBe("SIGKILL");
    await sql(`UPDATE ${t}_runs SET steps = NULL`);
    const resumed = await p.runFlow("old", [], env);
    expect(resumed.stdout).toBe("sum 6\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([1, 2, 3]);
    await sql(`DELETE FROM ${t}_steps WHERE run_id = 'old' AND step_id = 'main/2'`);
    expect((await p.runFlow("old", [], env)).stderr).toContain("has a gap in run old: its receipts recorded 3 steps, 2 are there");
  }, 30_000);
});

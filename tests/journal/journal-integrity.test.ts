/**
 * Hardening round 3, items 6 and 7: a journal refuses what it cannot trust, and `luma runs`
 * / `approve` / `deny` open the journal the run wrote. Tried as an attacker with write
 * access to the journal would (SQL on the SQLite file), through the real `dist/luma`:
 *
 *   an approval set by SQL, or copied from another run with the same input, approves
 *     nothing in an encrypted journal (decisions are sealed to run, step, digest, request)
 *   a deleted step row, or a journal file truncated to 0 bytes, stops the resume (E0908)
 *     instead of running the recorded side effects again
 *   an edited replayed output meets the tool's output schema; a malformed row is an error
 *     naming the journal, never "Internal error"
 *   an encrypted journal (its own setting, an encrypted idempotency store's, `--journal`)
 *     is read by the subcommands with LUMA_IDEMPOTENCY_KEY
 *
 * The PostgreSQL cases (same rules, other backend) are in journal-integrity-postgres.test.ts.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { rmSync, truncateSync } from "node:fs";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { approvalProgram, JournalProject } from "./journal-project";

const KEY = { LUMA_IDEMPOTENCY_KEY: "journal-integrity passphrase" };
const SEALED = { journal: { backend: "sqlite", path: "runs.sqlite", encryption: "aes-256-gcm" } };
const PLAIN = { journal: { backend: "sqlite", path: "runs.sqlite" } };
const STEP = "main/Ops.go#1/1";

/** Three side effects in a row, their results printed. */
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

/** One \`ask\` (model M at the fake provider), its answer printed. */
const ASKS = `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Verdict { ok: bool }
agent Judge {
  model: M
  fn check() -> Verdict {
    ask "Fine?" -> Verdict
  }
}
print("ok", Judge.check().ok)
`;

const sql = (p: JournalProject, text: string, ...params: (string | number | null)[]) => {
  const db = new Database(p.path("runs.sqlite"));
  try {
    return db.query(text).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
};

describe("Journal integrity (hardening 3, item 6): approvals are sealed", () => {
  test("an approval written by SQL into an encrypted journal approves nothing: the call stays pending and never runs", async () => {
    const p = new JournalProject(approvalProgram(7), SEALED);
    expect((await p.runFlow("f1", [], KEY)).exitCode).toBe(75);
    const [row] = sql(p, "SELECT digest FROM luma_journal_approvals");
    // What the table held before decisions were sealed: the decision and the digest it binds to, in the clear.
    sql(p, "UPDATE luma_journal_approvals SET decision = 'approved', decided_digest = ?, decided_at = 1", row.digest as string);
    const forged = await p.runFlow("f1", [], KEY);
    expect(forged.exitCode).toBe(75);
    expect(forged.stderr).toContain(`waiting for approval of tool 'effect' at step ${STEP}`);
    expect(p.lines("calls.log")).toEqual([]);
    // A person's approval still works, and the call runs once.
    expect((await p.run(["approve", "--run-id", "f1"], KEY)).exitCode).toBe(0);
    expect((await p.runFlow("f1", [], KEY)).stdout).toBe("got 7\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([7]);
  });

  test("an approval copied from another run with the same input approves nothing", async () => {
    const p = new JournalProject(approvalProgram(8), SEALED);
    expect((await p.runFlow("ok-run", [], KEY)).exitCode).toBe(75);
    expect((await p.runFlow("other", [], KEY)).exitCode).toBe(75);
    expect((await p.run(["approve", "--run-id", "ok-run"], KEY)).exitCode).toBe(0);
    const [approved] = sql(p, "SELECT digest, decision, decided_digest, requested_at FROM luma_journal_approvals WHERE run_id = 'ok-run'");
    const [waiting] = sql(p, "SELECT digest FROM luma_journal_approvals WHERE run_id = 'other'");
    expect(waiting.digest).toBe(approved.digest); // same input, same keyed digest
    sql(
      p,
      "UPDATE luma_journal_approvals SET decision = ?, decided_digest = ?, requested_at = ?, decided_at = 1 WHERE run_id = 'other'",
      approved.decision as string,
      approved.decided_digest as string,
      approved.requested_at as number,
    );
    const copied = await p.runFlow("other", [], KEY);
    expect(copied.exitCode).toBe(75);
    expect(p.lines("calls.log")).toEqual([]);
    expect((await p.runFlow("ok-run", [], KEY)).stdout).toBe("got 8\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([8]);
  });

  test("pending arguments copied from another run: luma runs names the journal and the record, no raw control characters", async () => {
    const p = new JournalProject(approvalProgram(9), SEALED);
    expect((await p.runFlow("a", [], KEY)).exitCode).toBe(75);
    expect((await p.runFlow("b", [], KEY)).exitCode).toBe(75);
    sql(p, "UPDATE luma_journal_approvals SET args = (SELECT args FROM luma_journal_approvals WHERE run_id = 'a') WHERE run_id = 'b'");
    const r = await p.run(["runs"], KEY);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      `Error: [RUNTIME_ERROR] Journal runs.sqlite: the record of step ${STEP} args of run b failed its integrity check (altered, or written with another key); it was left unchanged.\n`,
    );
  });
});

describe("Journal integrity (hardening 3, item 6): a journal that lost receipts is refused", () => {
  test("a finished step's row deleted: the resume stops naming the journal (E0908); no side effect runs again", async () => {
    const p = new JournalProject(THREE, PLAIN);
    expect((await p.runFlow("g1")).stdout).toBe("sum 6\n");
    sql(p, "DELETE FROM luma_journal_steps WHERE run_id = 'g1' AND step_id = 'main/2'");
    const r = await p.runFlow("g1");
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Error: Journal runs.sqlite has a gap in run g1: its receipts recorded 3 steps, 2 are there (a receipt was deleted, or the journal was restored from another copy). Resuming would run finished steps — their side effects — again; nothing was run and its records were left unchanged.\n  = code E0908 (luma explain E0908)\n",
    );
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([1, 2, 3]);
  });

  test("the last step's row deleted: refused the same way", async () => {
    const p = new JournalProject(THREE, PLAIN);
    expect((await p.runFlow("g2")).exitCode).toBe(0);
    sql(p, "DELETE FROM luma_journal_steps WHERE run_id = 'g2' AND step_id = 'main/3'");
    const r = await p.runFlow("g2");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Journal runs.sqlite has a gap in run g2: its receipts recorded 3 steps, 2 are there");
    expect(p.lines("calls.log").length).toBe(3);
  });

  test("a journal made before runs counted their steps: opened (the column added), its runs resume, and from then on a gap is caught", async () => {
    const p = new JournalProject(THREE, PLAIN);
    expect((await p.runFlow("old", [], { LUMA_TEST_CRASH_AT: "journal-after-finish:1" })).signal).toBe("SIGKILL");
    sql(p, "ALTER TABLE luma_journal_runs DROP COLUMN steps");
    const resumed = await p.runFlow("old");
    expect(resumed.stdout).toBe("sum 6\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([1, 2, 3]);
    sql(p, "DELETE FROM luma_journal_steps WHERE run_id = 'old' AND step_id = 'main/1'");
    expect((await p.runFlow("old")).stderr).toContain("Journal runs.sqlite has a gap in run old: its receipts recorded 3 steps, 2 are there");
  });

  test("the journal file truncated to 0 bytes: --run-id stops with E0908 instead of starting the run from scratch; luma runs says so too", async () => {
    const p = new JournalProject(THREE, PLAIN);
    expect((await p.runFlow("z1")).exitCode).toBe(0);
    for (const f of ["runs.sqlite-wal", "runs.sqlite-shm"]) rmSync(p.path(f), { force: true });
    truncateSync(p.path("runs.sqlite"), 0);
    const r = await p.runFlow("z1");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "Error: Journal runs.sqlite is an empty file (0 bytes): a journal truncated, its runs lost (remove the file to start a new journal); nothing was run and the journal was left unchanged.\n  = code E0908 (luma explain E0908)\n",
    );
    expect(p.lines("calls.log").length).toBe(3);
    const listed = await p.run(["runs"]);
    expect(listed.exitCode).toBe(2);
    expect(listed.stderr).toContain("Journal runs.sqlite is an empty file (0 bytes)");
  });

  test("a SQLite file that is not a journal is refused, not turned into one", async () => {
    const p = new JournalProject(THREE, PLAIN);
    const db = new Database(p.path("app.db"), { create: true });
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY)");
    db.close();
    const r = await p.runFlow("n1", ["--journal", "app.db"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith("Error: Journal app.db is a SQLite database without a journal's tables");
    expect(p.lines("calls.log")).toEqual([]);
    const check = new Database(p.path("app.db"));
    expect(check.query("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: "users" }]);
    check.close();
  });
});

describe("Journal integrity (hardening 3, item 6): what a replay answers is checked", () => {
  test("an edited output of the wrong type fails the tool's output schema on replay (TOOL_OUTPUT_INVALID naming the journal), not replayed as a string", async () => {
    const p = new JournalProject(THREE, PLAIN);
    expect((await p.runFlow("e1")).stdout).toBe("sum 6\n");
    sql(p, `UPDATE luma_journal_steps SET output = '{"ok":{"done":"1"}}' WHERE step_id = 'main/1'`);
    const r = await p.runFlow("e1");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(
      "Error: [TOOL_OUTPUT_INVALID] Journal runs.sqlite: the recorded output of step main/1 of run e1 fails tool 'effect''s output schema (the journal was altered, or the schema changed since it was recorded):",
    );
    expect(r.stderr).toContain("done");
    expect(p.lines("calls.log").length).toBe(3);
  });

  test("a malformed row is an error naming the journal and the step, never an internal error", async () => {
    const cases: [string, string, string][] = [
      ["output = 'not json at all'", "e1", "Error: [RUNTIME_ERROR] Journal runs.sqlite: the record of step main/2 of run e1 is malformed (not the JSON Luma writes); it was left unchanged."],
      ["output = '{\"neither\":1}'", "e2", "Error: [RUNTIME_ERROR] Journal runs.sqlite: the record of step main/2 of run e2 is malformed (no outcome Luma writes); it was left unchanged."],
      ["status = 'done'", "e3", "Error: Journal runs.sqlite holds a malformed record for step main/2 of run e3 (status \"done\"); nothing was run and its records were left unchanged."],
      ["output = NULL", "e4", "Error: Journal runs.sqlite holds a malformed record for step main/2 of run e4 (no outcome for a finished step); nothing was run and its records were left unchanged."],
    ];
    for (const [set, run, message] of cases) {
      const p = new JournalProject(THREE, PLAIN);
      expect((await p.runFlow(run)).exitCode).toBe(0);
      sql(p, `UPDATE luma_journal_steps SET ${set} WHERE step_id = 'main/2'`);
      const r = await p.runFlow(run);
      expect(r.stderr.split("\n")[0]).toBe(message);
      expect(r.stderr).not.toContain("nternal");
      expect(r.exitCode).toBe(message.includes("[RUNTIME_ERROR]") ? 1 : 2);
      expect(p.lines("calls.log").length).toBe(3);
    }
  });

  test("an edited model answer: a malformed one names the journal; one of the wrong type meets the ask's schema as a live answer does", async () => {
    const fake = await startFakeProvider();
    try {
      const p = new JournalProject(ASKS, PLAIN);
      fake.script([{ json: { ok: true } }]);
      expect((await p.runFlow("q1", [], { OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: fake.baseUrl("openai") })).stdout).toBe("ok true\n");
      sql(p, `UPDATE luma_journal_steps SET output = '{"ok":5}' WHERE kind = 'model'`);
      const malformed = await p.runFlow("q1");
      expect(malformed.exitCode).toBe(1);
      expect(malformed.stderr.split("\n")[0]).toBe(
        "Error: [RUNTIME_ERROR] Journal runs.sqlite: the record of step main/Judge.check#1/1.req1 of run q1 is malformed (not a model answer Luma writes); it was left unchanged.",
      );
      const answer = { assistant: null, text: '{"ok":"yes"}', toolCalls: [], finish: "stop", usage: {} };
      sql(p, "UPDATE luma_journal_steps SET output = ? WHERE kind = 'model'", JSON.stringify({ ok: answer }));
      const wrongType = await p.runFlow("q1");
      expect(wrongType.exitCode).toBe(1);
      expect(wrongType.stderr).toStartWith("Error: [ASK_OUTPUT_INVALID] The answer of model 'M' to ask -> Verdict was invalid: Verdict.ok must be a boolean, got string");
      expect(fake.requests.length).toBe(1);
    } finally {
      fake.stop();
    }
  });

  test("an edited now() reading that is not a time names the journal", async () => {
    const p = new JournalProject(`t = now()\nprint("read")\n`, PLAIN);
    expect((await p.runFlow("t1")).stdout).toBe("read\n");
    sql(p, `UPDATE luma_journal_steps SET output = '{"ok":"not a time"}' WHERE kind = 'now'`);
    const r = await p.runFlow("t1");
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe("Error: [RUNTIME_ERROR] Journal runs.sqlite: the record of step now#1 of run t1 is malformed (not a time); it was left unchanged.");
  });

  test("an encrypted journal's output moved to another step fails its integrity check, naming the journal", async () => {
    const p = new JournalProject(THREE, SEALED);
    expect((await p.runFlow("m1", [], KEY)).exitCode).toBe(0);
    sql(p, "UPDATE luma_journal_steps SET output = (SELECT output FROM luma_journal_steps WHERE step_id = 'main/1') WHERE step_id = 'main/3'");
    const r = await p.runFlow("m1", [], KEY);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split("\n")[0]).toBe(
      "Error: [RUNTIME_ERROR] Journal runs.sqlite: the record of step main/3 of run m1 failed its integrity check (altered, or written with another key); it was left unchanged.",
    );
  });
});

describe("Journal integrity (hardening 3, item 7): luma runs / approve / deny open the journal the run wrote", () => {
  test("a journal encrypted through an encrypted idempotency store: runs, approve and the resumed run, from luma.config.json", async () => {
    const p = new JournalProject(approvalProgram(5), {
      journal: { backend: "sqlite", path: "runs.sqlite" },
      idempotency_store: { backend: "sqlite", path: "idem.sqlite", encryption: "aes-256-gcm" },
    });
    expect((await p.runFlow("i1", [], KEY)).exitCode).toBe(75);
    const listed = await p.run(["runs", "--format", "json"], KEY);
    expect(listed.stderr).toBe("");
    expect(JSON.parse(listed.stdout).pending).toMatchObject([{ run: "i1", step: STEP, tool: "effect", args: { n: 5 } }]);
    const ok = await p.run(["approve", "--run-id", "i1"], KEY);
    expect(ok.stderr).toBe("");
    expect(ok.exitCode).toBe(0);
    expect((await p.runFlow("i1", [], KEY)).stdout).toBe("got 5\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([5]);
  });

  test("--journal PATH on an encrypted journal: runs, runs show, deny read it with the key; without the key a clear error", async () => {
    const p = new JournalProject(approvalProgram(6), {
      idempotency_store: { backend: "sqlite", path: "idem.sqlite", encryption: "aes-256-gcm" },
    });
    const J = ["--journal", "state/runs.sqlite"];
    expect((await p.runFlow("p1", J, KEY)).exitCode).toBe(75);
    // No "journal" in luma.config.json: the journal's header is what says it is encrypted.
    const listed = await p.run(["runs", ...J, "--format", "json"], KEY);
    expect(listed.stderr).toBe("");
    expect(JSON.parse(listed.stdout).pending).toMatchObject([{ run: "p1", step: STEP, args: { n: 6 } }]);
    const keyless = await p.run(["runs", ...J]);
    expect(keyless.exitCode).toBe(2);
    expect(keyless.stderr).toBe(
      "Error: Journal state/runs.sqlite is encrypted: set LUMA_IDEMPOTENCY_KEY to the passphrase its runs were written with; it was left unchanged.\n  = code E0607 (luma explain E0607)\n",
    );
    const denied = await p.run(["deny", "--run-id", "p1", ...J], KEY);
    expect(denied.stderr).toBe("");
    expect(denied.exitCode).toBe(0);
    const shown = await p.run(["runs", "show", "p1", ...J, "--format", "json"], KEY);
    expect(JSON.parse(shown.stdout).status).toBe("pending");
    const r = await p.runFlow("p1", J, KEY);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("TOOL_PERMISSION_DENIED");
    expect(p.lines("calls.log")).toEqual([]);
  });
});

/**
 * Durable runs (issue #15) §2: one run id, one process at a time. The run's lease is a row
 * in the journal (owner `host:pid`, a fencing token, an expiry renewed by a heartbeat): a
 * second process resuming the run while the first is alive gets "run in progress" (exit 2,
 * nothing run); a dead owner on this machine is taken over at once; an owner elsewhere only
 * once its lease has expired.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { GATED, JournalProject } from "./journal-project";

const waitFor = async (ok: () => boolean) => {
  while (!ok()) await Bun.sleep(10);
};

describe("Durable runs (issue #15 §2): two processes resuming the same run id", () => {
  test("4 processes start one run id at once: exactly one proceeds, the others get 'run in progress' (exit 2) and run nothing", async () => {
    const p = new JournalProject(GATED, { journal: { backend: "sqlite", path: "runs.sqlite" } });
    const procs = [1, 2, 3, 4].map(() => p.spawn(["flow.luma", "--run-id", "shared"]));
    const texts = procs.map((x) => Promise.all([new Response(x.stdout).text(), new Response(x.stderr).text()]));
    // The losers end on their own; the winner waits at its gate until they have.
    const exits = procs.map((x) => x.exited);
    await waitFor(() => readdirSync(p.dir).some((f) => f.startsWith("started.")));
    const done: number[] = [];
    procs.forEach((x, i) => x.exited.then(() => done.push(i)));
    await waitFor(() => done.length === 3);
    writeFileSync(p.path("release"), "");
    await Promise.all(exits);
    const results = await Promise.all(texts);
    const codes = procs.map((x) => x.exitCode);
    expect(codes.filter((c) => c === 0).length).toBe(1);
    expect(codes.filter((c) => c === 2).length).toBe(3);
    for (let i = 0; i < 4; i++) {
      if (codes[i] === 0) expect(results[i]).toEqual(["gate 1\n", ""]);
      else expect(results[i][1]).toMatch(/^Error: Run shared is in progress \([^)]+:\d+\) in journal runs\.sqlite; nothing was run\. Try again when it has stopped\.\n  = code E0902 \(luma explain E0902\)\n$/);
    }
    expect(readdirSync(p.dir).filter((f) => f.startsWith("started.")).length).toBe(1);
    expect(p.lines("effects.log")).toEqual([{ gate: 1 }]);
  }, 30_000);

  test("a lease held by a live owner on another machine is respected until it expires, then taken over", async () => {
    const p = new JournalProject(GATED, { journal: { backend: "sqlite", path: "runs.sqlite" } });
    writeFileSync(p.path("release"), "");
    const first = await p.runFlow("r1");
    expect(first.exitCode).toBe(0);
    // Forge what a worker elsewhere holding the run looks like.
    const db = new Database(p.path("runs.sqlite"));
    db.query("UPDATE luma_journal_runs SET owner = 'elsewhere:1', token = 'theirs', lease_until = ?").run(Date.now() + 60_000);
    db.close();
    const refused = await p.runFlow("r1");
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("Run r1 is in progress (elsewhere:1)");
    const db2 = new Database(p.path("runs.sqlite"));
    db2.query("UPDATE luma_journal_runs SET lease_until = ?").run(Date.now() - 1);
    db2.close();
    const taken = await p.runFlow("r1");
    expect(taken.exitCode).toBe(0);
    expect(taken.stdout).toBe("gate 1\n");
    expect(p.lines("effects.log")).toEqual([{ gate: 1 }]);
  });

  test("a process whose lease was taken over records nothing more and stops with a clear error (fencing token)", async () => {
    const p = new JournalProject(GATED, { journal: { backend: "sqlite", path: "runs.sqlite" } });
    const proc = p.spawn(["flow.luma", "--run-id", "f1"]);
    const text = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    await waitFor(() => readdirSync(p.dir).some((f) => f.startsWith("started.")));
    // Another worker takes the run over (as after a lease expiry) while this one waits at its gate.
    const db = new Database(p.path("runs.sqlite"));
    db.query("UPDATE luma_journal_runs SET owner = 'elsewhere:2', token = 'taker'").run();
    db.close();
    writeFileSync(p.path("release"), "");
    await proc.exited;
    const [stdout, stderr] = await text;
    expect(proc.exitCode).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "Error: [RUNTIME_ERROR] Run f1: another process took over its lease in the journal; this process stopped without recording more.\n" +
        "  --> flow.luma:7:5\n  7 | r = tool gate({ n: 1 })\n    |     ^^^^^^^^^^^^^^^^^^^\n",
    );
    const check = new Database(p.path("runs.sqlite"));
    expect(check.query("SELECT step_id, status FROM luma_journal_steps").all()).toEqual([{ step_id: "main/1", status: "begun" }]);
    expect(check.query("SELECT owner, token FROM luma_journal_runs").all()).toEqual([{ owner: "elsewhere:2", token: "taker" }]);
    check.close();
  }, 30_000);

  test("--run-id without a journal, and a malformed run id, are rejected before anything runs (exit 2)", async () => {
    const p = new JournalProject(GATED);
    writeFileSync(p.path("release"), "");
    const noJournal = await p.runFlow("r1");
    expect(noJournal.exitCode).toBe(2);
    expect(noJournal.stderr).toBe(`Error: --run-id needs a journal: pass --journal PATH or set "journal" in luma.config.json.\n  = code E0903 (luma explain E0903)\n`);
    const bad = await p.run(["flow.luma", "--journal", "j.sqlite", "--run-id", "a b/../c"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`--run-id "a b/../c" is not a valid run id`);
    expect(existsSync(p.path("effects.log"))).toBe(false);
  });
});

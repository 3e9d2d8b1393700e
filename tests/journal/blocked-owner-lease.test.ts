/**
 * Hardening round 3, item 3, for the durable run's own lease, through the real `dist/luma`
 * on both journals (SQLite, PostgreSQL): a step whose handler blocks the process's thread
 * (`Atomics.wait`, as a synchronous SDK would) past the run's lease stops the lease's
 * heartbeat, not the run. A second process resuming the same run id meanwhile must get
 * "run in progress" (exit 2) and run nothing; the blocked owner then finishes its run. The
 * owner is on this machine: the journal checks its pid and start time
 * (src/runtime/stores/claim-owner.ts). On Postgres the two processes also play two
 * machines (LUMA_TEST_HOST), where only the owner's off-thread renewals (a worker with its own
 * connection, off-thread-renewal.ts) keep the lease.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { requireService } from "../datasources/service-env";
import { JournalProject } from "./journal-project";

const PG_URL = requireService("LUMA_TEST_PG_URL", ".ci/services/postgres.sh");
const tables: string[] = [];

afterAll(async () => {
  if (!PG_URL || tables.length === 0) return;
  const sql = new Bun.SQL(PG_URL);
  for (const t of tables) for (const s of ["meta", "runs", "steps", "approvals"]) await sql.unsafe(`DROP TABLE IF EXISTS ${t}_${s}`);
  await sql.close();
});

const BLOCKED = `
schema Done { done: int }
tool block(n: int) -> Done {
  side_effects: "write"
  timeout: 60000
}
r = tool block({ n: 1 })
print("block", r.done)
`;

/** `block` marks its start, then holds the thread (no timer runs) until the file `release` exists. */
const BLOCKING_TOOLS = `
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.env.PROJECT_DIR;
export const tools = {
  block: (input) => {
    writeFileSync(join(dir, "started." + process.pid), "");
    const cell = new Int32Array(new SharedArrayBuffer(4));
    while (!existsSync(join(dir, "release"))) Atomics.wait(cell, 0, 0, 20);
    appendFileSync(join(dir, "effects.log"), JSON.stringify({ block: input.n }) + "\\n");
    return { done: input.n };
  },
};
`;

const waitUntil = async (ok: () => boolean) => {
  for (let pause = 5; !ok(); pause = Math.min(pause * 2, 50)) await Bun.sleep(pause);
};

const pgJournal = () => {
  const table = `jb_${process.pid}_${Date.now().toString(36)}_${tables.length}`;
  tables.push(table);
  return { backend: "postgres", url_env: "LUMA_TEST_PG_URL", table };
};
const pgEnv = { LUMA_TEST_PG_URL: PG_URL ?? "" };

/** Each case: the journal, and the host names the owner and the second process carry ("": the real one). */
const JOURNALS: { name: string; journal: () => Record<string, unknown>; env: Record<string, string>; hosts: [string, string] }[] = [
  { name: "sqlite", journal: () => ({ backend: "sqlite", path: "runs.sqlite" }), env: {}, hosts: ["", ""] },
  { name: "postgres, one machine", journal: pgJournal, env: pgEnv, hosts: ["", ""] },
  { name: "postgres, two machines", journal: pgJournal, env: pgEnv, hosts: ["machine-a", "machine-b"] },
];

describe("Durable runs: an owner whose step blocks its thread keeps the run's lease", () => {
  for (const j of JOURNALS) {
    test(`${j.name}: blocked past its lease, the owner keeps the run; a second process resuming it gets 'run in progress' and runs nothing`, async () => {
      const p = new JournalProject(BLOCKED, { journal: j.journal() });
      p.write("tools.ts", BLOCKING_TOOLS);
      const env = { ...j.env, LUMA_TEST_LEASE_MS: "1000" }; // renewed every 333 ms
      const started = () => readdirSync(p.dir).filter((f) => f.startsWith("started.")).length;
      const owner = p.spawn(["flow.luma", "--run-id", "b1"], { ...env, LUMA_TEST_HOST: j.hosts[0] });
      const ownerText = Promise.all([new Response(owner.stdout).text(), new Response(owner.stderr).text()]);
      await waitUntil(() => started() === 1);
      await Bun.sleep(2500); // the thread is blocked since the step began: the lease has passed
      const second = p.spawn(["flow.luma", "--run-id", "b1"], { ...env, LUMA_TEST_HOST: j.hosts[1] });
      const secondText = Promise.all([new Response(second.stdout).text(), new Response(second.stderr).text()]);
      let ended = false;
      void second.exited.then(() => (ended = true));
      // Before the fix the second process takes the run over and starts the step itself.
      await waitUntil(() => ended || started() > 1);
      writeFileSync(p.path("release"), "");
      await Promise.all([owner.exited, second.exited]);
      expect(second.exitCode).toBe(2);
      expect((await secondText)[1]).toMatch(/^Error: Run b1 is in progress \([^)]+:\d+\) in journal /);
      expect(owner.exitCode).toBe(0);
      expect(await ownerText).toEqual(["block 1\n", ""]);
      expect(started()).toBe(1);
      expect(p.lines("effects.log")).toEqual([{ block: 1 }]);
    }, 60_000);
  }
});

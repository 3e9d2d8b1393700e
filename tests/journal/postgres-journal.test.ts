/**
 * Durable runs (issue #15) on PostgreSQL (`"journal": { "backend": "postgres", "url_env" }`),
 * the journal for worker pools: the same guarantees as SQLite, through the real server
 * (LUMA_TEST_PG_URL), each test in tables of its own (`table`), dropped afterwards.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { requireService } from "../datasources/service-env";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { FIVE_EFFECTS_TWO_ASKS, GATED, JournalProject } from "./journal-project";

const PG_URL = requireService("LUMA_TEST_PG_URL", ".ci/services/postgres.sh");
const tables: string[] = [];
const fakes: FakeProvider[] = [];

const pgProject = (program: string) => {
  const table = `jt_${process.pid}_${Date.now().toString(36)}_${tables.length}`;
  tables.push(table);
  return new JournalProject(program, { journal: { backend: "postgres", url_env: "LUMA_TEST_PG_URL", table } });
};
const pgEnv = { LUMA_TEST_PG_URL: PG_URL };

afterAll(async () => {
  fakes.forEach((f) => f.stop());
  if (!PG_URL) return;
  const sql = new Bun.SQL(PG_URL);
  for (const t of tables) for (const s of ["meta", "runs", "steps", "approvals"]) await sql.unsafe(`DROP TABLE IF EXISTS ${t}_${s}`);
  await sql.close();
});

const EXPECTED_OUTPUT = "a 1\nv1 first\nc+d 7\nv2 second\ne 5\n";

describe.skipIf(!PG_URL)("Durable runs on PostgreSQL", () => {
  for (const crash of [{ LUMA_TEST_CRASH_AT: "journal-after-begin:3" }, { LUMA_TEST_CRASH_AT: "journal-after-finish:6" }, { LUMA_TEST_KILL_IN_HANDLER: "4" }]) {
    test.concurrent(`issue #15 §2: killed (${Object.entries(crash)[0].join("=")}), resumed: each side effect once, same output, no repeated provider request`, async () => {
      const p = pgProject(FIVE_EFFECTS_TWO_ASKS);
      const fake = await startFakeProvider();
      fakes.push(fake);
      fake.script([{ json: { ok: true, note: "first" } }, { json: { ok: true, note: "second" } }]);
      const env = { ...pgEnv, OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: fake.baseUrl("openai") };
      const crashed = await p.runFlow("pg-1", [], { ...env, ...crash });
      expect(crashed.signal).toBe("SIGKILL");
      const resumed = await p.runFlow("pg-1", [], env);
      expect(resumed.stderr).toBe("");
      expect(resumed.stdout).toBe(EXPECTED_OUTPUT);
      expect(p.lines("effects.log").map((e) => e.n)).toEqual([1, 2, 3, 4, 5]);
      expect(fake.requests.length).toBe(2);
      const shown = JSON.parse((await p.run(["runs", "show", "pg-1", "--format", "json"], pgEnv)).stdout);
      expect(shown.status).toBe("finished");
      expect(shown.steps.length).toBe(7);
    }, 30_000);
  }

  test("issue #15 §2: 4 processes resuming one run id at once: exactly one proceeds", async () => {
    const p = pgProject(GATED);
    const procs = [1, 2, 3, 4].map(() => p.spawn(["flow.luma", "--run-id", "shared"], pgEnv));
    const texts = procs.map((x) => Promise.all([new Response(x.stdout).text(), new Response(x.stderr).text()]));
    const done: number[] = [];
    procs.forEach((x, i) => x.exited.then(() => done.push(i)));
    while (done.length < 3) await Bun.sleep(10);
    writeFileSync(p.path("release"), "");
    await Promise.all(procs.map((x) => x.exited));
    const results = await Promise.all(texts);
    const codes = procs.map((x) => x.exitCode);
    expect(codes.filter((c) => c === 0).length).toBe(1);
    expect(codes.filter((c) => c === 2).length).toBe(3);
    for (let i = 0; i < 4; i++) if (codes[i] === 2) expect(results[i][1]).toContain("Run shared is in progress");
    expect(readdirSync(p.dir).filter((f) => f.startsWith("started.")).length).toBe(1);
    expect(p.lines("effects.log")).toEqual([{ gate: 1 }]);
  }, 30_000);

  test("issue #15 §4: approvals: pending (exit 75) → luma approve (journal from luma.config.json) → the resumed run runs the call once; deny → TOOL_PERMISSION_DENIED", async () => {
    const program = (n: number) => `
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
agent Ops {
  tool_policy: "approval"
  tools: [effect]
  fn go(n: int) -> int {
    r = tool effect({ n: n })
    return r.done
  }
}
try {
  print("got", Ops.go(${n}))
} catch err {
  print("caught", err.code)
}
`;
    const p = pgProject(program(6));
    expect((await p.runFlow("ap", [], pgEnv)).exitCode).toBe(75);
    const listed = JSON.parse((await p.run(["runs", "--format", "json"], pgEnv)).stdout);
    expect(listed.pending).toMatchObject([{ run: "ap", step: "main/Ops.go#1/1", tool: "effect", args: { n: 6 } }]);
    const bad = await p.run(["approve", "--run-id", "ap", "--digest", "forged"], pgEnv);
    expect(bad.exitCode).toBe(1);
    expect((await p.run(["approve", "--run-id", "ap", "--digest", listed.pending[0].digest], pgEnv)).exitCode).toBe(0);
    expect((await p.runFlow("ap", [], pgEnv)).stdout).toBe("got 6\n");
    expect((await p.runFlow("ap", [], pgEnv)).stdout).toBe("got 6\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([6]);

    expect((await p.runFlow("dn", [], pgEnv)).exitCode).toBe(75);
    expect((await p.run(["deny", "--run-id", "dn"], pgEnv)).exitCode).toBe(0);
    expect((await p.runFlow("dn", [], pgEnv)).stdout).toBe("caught TOOL_PERMISSION_DENIED\n");
    expect(p.lines("calls.log").length).toBe(1);
  }, 30_000);
});

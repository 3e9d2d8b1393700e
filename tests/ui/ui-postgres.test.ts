/**
 * `luma ui` over a PostgreSQL journal (the config's `journal`, `url_env`): the runs list and a
 * run's timeline with its recorded detail, and a decision from the API — on a real server
 * (LUMA_TEST_PG_URL), in tables of the test's own, dropped afterwards.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { requireService } from "../datasources/service-env";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/luma-binary";
import { UiProject } from "./ui-project";

const PG_URL = requireService("LUMA_TEST_PG_URL", ".ci/services/postgres.sh");
const table = `ui_${process.pid}_${Date.now().toString(36)}`;
let fake: FakeProvider | undefined;
const projects: UiProject[] = [];

afterAll(async () => {
  projects.forEach((p) => p.stop());
  fake?.stop();
  if (!PG_URL) return;
  const sql = new Bun.SQL(PG_URL);
  for (const s of ["meta", "runs", "steps", "approvals", "evals"]) await sql.unsafe(`DROP TABLE IF EXISTS ${table}_${s}`);
  await sql.close();
});

describe.skipIf(!PG_URL)("luma ui on a PostgreSQL journal", () => {
  test("lists the run, shows its ask's messages and tool inputs, approves its waiting call; the resumed run finishes", async () => {
    const p = new UiProject();
    projects.push(p);
    await Bun.write(
      p.path("luma.config.json"),
      JSON.stringify({ tool_modules: ["./tools.ts"], journal: { backend: "postgres", url_env: "LUMA_TEST_PG_URL", table }, threads: { backend: "sqlite", path: "threads.sqlite" } }),
    );
    fake = await startFakeProvider();
    fake.script([{ toolCalls: [{ name: "effect", args: { n: 4 } }] }, { json: { total: 4 } }]);
    const env = { LUMA_TEST_PG_URL: PG_URL!, OPENAI_API_KEY: "sk-pg-ui", LUMA_BASE_URL_M: fake.baseUrl("openai") };
    expect((await p.run(["flow.luma", "--run-id", "pg-1"], env)).exitCode).toBe(75);

    const url = await p.serve([], env);
    const runs = (await (await fetch(url + "api/runs")).json()) as { id: string; status: string; source: string }[];
    expect(runs).toMatchObject([{ id: "0:pg-1", status: "waiting" }]);
    expect(runs[0].source).not.toContain("@"); // the URL without its credentials
    const run = (await (await fetch(url + "api/run?id=0:pg-1")).json()) as {
      steps: { step: string; detail: { messages?: { text?: string }[]; input?: unknown } }[];
      pending: { step: string; digest: string }[];
    };
    expect(run.steps.map((s) => s.step)).toEqual(["main/Worker.run#1/1.req1", "main/Worker.run#1/1.req1.call1", "main/Worker.run#1/1.req2"]);
    expect(run.steps[0].detail.messages![0].text).toBe("Call effect with 1 and 2, then answer the total.");
    expect(run.steps[1].detail.input).toEqual({ n: 4 });

    const html = await (await fetch(url)).text();
    const csrf = /luma-csrf" content="([^"]+)"/.exec(html)![1];
    const act = await fetch(url + "api/act", {
      method: "POST",
      headers: { "content-type": "application/json", origin: url.slice(0, -1), "x-luma-csrf": csrf },
      body: JSON.stringify({ id: "0:pg-1", step: "main/2", digest: run.pending[0].digest, action: "approve" }),
    });
    expect(act.status).toBe(200);
    const resumed = await p.run(["flow.luma", "--run-id", "pg-1"], env);
    expect({ exit: resumed.exitCode, out: resumed.stdout }).toEqual({ exit: 0, out: "total 4\nsent 40\n" });
    expect(((await (await fetch(url + "api/runs")).json()) as { status: string }[])[0].status).toBe("finished");
  });

  test("luma eval records its evals in the PostgreSQL journal (the _evals table); luma ui lists them", async () => {
    const p = new UiProject();
    projects.push(p);
    for (const f of ["triage.luma", "triage.eval.luma", "cases.jsonl", "triage.cassette.jsonl"]) copyFileSync(join(REPO, "examples", "120_eval", f), p.path(f));
    await Bun.write(p.path("luma.config.json"), JSON.stringify({ journal: { backend: "postgres", url_env: "LUMA_TEST_PG_URL", table } }));
    const env = { LUMA_TEST_PG_URL: PG_URL! };
    const ran = await p.run(["eval", ".", "--replay", "triage.cassette.jsonl"], env);
    expect({ exit: ran.exitCode, err: ran.stderr }).toEqual({ exit: 0, err: "" });
    const url = await p.serve([], env);
    const evals = (await (await fetch(url + "api/evals")).json()) as { name: string; scores: Record<string, { mean: number }>; cases: { run: string }[] }[];
    expect(evals.map((e) => e.name)).toEqual(["triage routes"]);
    expect(evals[0].scores.route.mean).toBeCloseTo(2 / 3, 5);
    const runs = ((await (await fetch(url + "api/runs")).json()) as { id: string }[]).map((r) => r.id);
    for (const c of evals[0].cases) expect(runs).toContain(c.run);
  });
});

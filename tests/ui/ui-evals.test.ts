/**
 * Issue #31: `luma eval`'s runs appear in `luma ui` with their scores. Through the real
 * `dist/luma`: `luma eval` (offline, from examples/120_eval's cassette, with `--model`)
 * records each eval in the configured journal — each case a run of its own, the eval with its
 * scores and cases as a group — and `luma ui`'s Evals view shows, per eval and per score, the
 * mean and the failing cases, the `--model` run side by side, and each case linking to its
 * run's timeline. Without a journal nothing is recorded; in an encrypted one the record is
 * sealed. The screenshot goes to docs/ui-evals.png with LUMA_UPDATE=1.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { REPO } from "../support/luma-binary";
import { browserAvailable, CHROMIUM, UiProject } from "./ui-project";

const EXAMPLE = join(REPO, "examples", "120_eval");
const SHOTS = process.env.LUMA_UPDATE === "1" ? join(REPO, "docs") : mkdtempSync(join(tmpdir(), "luma-ui-shots-"));
const enabled = browserAvailable();
const projects: UiProject[] = [];
let browser: Browser | undefined;

/** A UI project holding examples/120_eval, its journal configured as `journal` says. */
const evalProject = (journal: Record<string, unknown> | undefined): UiProject => {
  const p = new UiProject();
  projects.push(p);
  for (const f of ["triage.luma", "triage.eval.luma", "cases.jsonl", "triage.cassette.jsonl"]) copyFileSync(join(EXAMPLE, f), p.path(f));
  writeFileSync(p.path("luma.config.json"), JSON.stringify(journal === undefined ? {} : { journal }));
  return p;
};

const evalArgs = ["eval", ".", "--replay", "triage.cassette.jsonl", "--model", "Triage=Careful"];

beforeAll(async () => {
  if (enabled) browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});
afterAll(async () => {
  for (const p of projects) p.stop();
  await browser?.close();
});

describe("luma eval recorded in the journal, shown by luma ui", () => {
  test("/api/evals: each eval (and --model variant) of one luma eval, its scores, its cases naming their journal runs", async () => {
    const p = evalProject({ backend: "sqlite", path: "runs.sqlite" });
    const ran = await p.run(evalArgs);
    expect(ran.stderr).toBe("");
    expect(ran.exitCode).toBe(0);
    const url = await p.serve();
    const evals = (await (await fetch(url + "api/evals")).json()) as { invocation: string; name: string; variant: string | null; scores: Record<string, { mean: number; failing: { line: number; id?: string }[] }>; cases: { line: number; run: string | null }[] }[];
    expect(evals.map((e) => [e.name, e.variant])).toEqual([["triage routes", null], ["triage routes", "Triage=Careful"]]);
    expect(evals[0].invocation).toBe(evals[1].invocation);
    expect(evals[0].scores.route.mean).toBeCloseTo(2 / 3, 5);
    expect(evals[0].scores.route.failing).toEqual([{ line: 2, id: "login" }]);
    expect(evals[1].scores.route.mean).toBe(1);
    // Each case is a run of the journal: the page's runs list has it, and it opens.
    const runs = (await (await fetch(url + "api/runs")).json()) as { id: string; status: string }[];
    expect(runs.length).toBe(6);
    for (const c of [...evals[0].cases, ...evals[1].cases]) expect(runs.map((r) => r.id)).toContain(c.run!);
    const run = await fetch(url + `api/run?id=${encodeURIComponent(evals[0].cases[1].run!)}`);
    expect(((await run.json()) as { steps: { kind: string }[] }).steps.some((s) => s.kind === "model")).toBe(true);
  });

  test("without a journal luma eval records nothing and works as before", async () => {
    const p = evalProject(undefined);
    const ran = await p.run(evalArgs);
    expect(ran.exitCode).toBe(0);
    expect(ran.stdout).toContain("triage routes › route: 0.67 | 1.00");
  });

  test("an encrypted journal seals the eval's record; luma ui reads it with the key", async () => {
    const p = evalProject({ backend: "sqlite", path: "runs.sqlite", encryption: "aes-256-gcm" });
    const env = { LUMA_IDEMPOTENCY_KEY: "correct horse battery staple eval" };
    const ran = await p.run(evalArgs, env);
    expect(ran.stderr).toBe("");
    expect(ran.exitCode).toBe(0);
    const raw = readFileSync(p.path("runs.sqlite")).toString("latin1");
    expect(raw).not.toContain("triage routes");
    const url = await p.serve([], env);
    const evals = (await (await fetch(url + "api/evals")).json()) as { name: string }[];
    expect(evals.map((e) => e.name)).toEqual(["triage routes", "triage routes"]);
  });

  test("a journal that cannot take the eval's record: E1416 after the report (exit 1), naming the journal's failure", async () => {
    const p = evalProject({ backend: "sqlite", path: "runs.sqlite" });
    writeFileSync(p.path("noop.luma"), "print(1)\n");
    expect((await p.run(["noop.luma"])).exitCode).toBe(0);
    // The evals table replaced by a view: the cases' runs are journaled, the eval's record cannot be written.
    const db = new Database(p.path("runs.sqlite"));
    db.exec("DROP TABLE luma_journal_evals; CREATE VIEW luma_journal_evals AS SELECT 'x' AS eval_id, 0 AS created_at, '' AS report");
    db.close();
    const ran = await p.run(evalArgs);
    expect(ran.stdout).toContain("triage routes › route: 0.67 | 1.00");
    expect(ran.stderr).toContain("the evals ran, but cannot be recorded in the journal");
    expect(ran.stderr).toContain("E1416");
    expect(ran.stderr).not.toContain("    at ");
    expect(ran.exitCode).toBe(1);
  });

  test.skipIf(!enabled)("the Evals view: per score the mean and failing cases, --model side by side, each case linking to its run's timeline", async () => {
    const p = evalProject({ backend: "sqlite", path: "runs.sqlite" });
    expect((await p.run(evalArgs)).exitCode).toBe(0);
    const url = await p.serve();
    const pg = await browser!.newPage({ viewport: { width: 1400, height: 640 } });
    const errors: string[] = [];
    pg.on("pageerror", (e) => errors.push(String(e)));
    pg.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    await pg.goto(url + "#/evals");
    await pg.waitForSelector('body[data-evals-loaded="2"]');
    const route = await pg.textContent('[data-eval="triage routes"] [data-score="route"]');
    expect(route).toContain("mean 0.67");
    expect(route).toContain("failing: line 2 (id login)");
    expect(route).toContain("mean 1.00");
    expect(await pg.textContent('[data-eval="triage routes"] thead')).toContain("Triage=Careful");
    expect(await pg.textContent('[data-eval="triage routes"] tr.case[data-line="2"]')).toContain("route=false");
    await pg.screenshot({ path: join(SHOTS, "ui-evals.png") });
    await pg.click('a.case-run[data-case="2"][data-variant="as written"]');
    await pg.waitForSelector(".step");
    expect(pg.url()).toContain("#/run/");
    expect(await pg.textContent(".run")).toContain("Triage");
    expect(errors).toEqual([]);
  });
});

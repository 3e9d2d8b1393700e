/**
 * `luma ui` at scale (issue #31 §1): a journal of 10,000 runs and a run of 5,000 steps, in
 * headless Chromium. The journal is made by a real `dist/luma` run (schema and header), then
 * filled with rows shaped as that run wrote them (a plain journal's values are JSON text).
 * Measured and printed: the server's answer for the list, the page's first contentful paint,
 * the time until the 10,000 rows are listed, and scrolling the 5,000 steps end to end. The
 * asserts are loose (the lists stay virtual: a few dozen rows in the DOM) — timing varies on
 * a shared machine; the numbers are for docs/ui.md.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
import { browserAvailable, CHROMIUM, UiProject } from "./ui-project";

const enabled = browserAvailable();
const RUNS = 10_000;
const STEPS = 5_000;

let browser: Browser;

/** Runs in the page: scrolls the timeline a screen per frame to its end; times each frame. (Text: the tests' types have no DOM.) */
const SCROLL_TO_END = `(async () => {
  const list = document.querySelector(".timeline .vlist");
  const frames = [];
  let last = performance.now();
  const began = last;
  while (list.scrollTop + list.clientHeight < list.scrollHeight - 1) {
    list.scrollTop += list.clientHeight;
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    frames.push(now - last);
    last = now;
  }
  frames.sort((a, b) => a - b);
  return { totalMs: performance.now() - began, frames: frames.length, medianFrameMs: frames[Math.floor(frames.length / 2)], worstFrameMs: frames[frames.length - 1],
    lastStep: document.querySelector(".step:last-child")?.getAttribute("data-step") ?? null };
})()`;
const p = enabled ? new UiProject() : undefined;

/** 10,000 finished runs of 2 steps (an ask's request and a tool call), and run big-1 with 5,000 tool calls. */
const fill = (path: string): void => {
  const db = new Database(path);
  const now = Date.now() - RUNS * 60_000;
  const run = db.query("INSERT INTO luma_journal_runs (run_id, program, status, owner, token, lease_until, created_at, updated_at, steps) VALUES (?, 'flow.luma', ?, NULL, NULL, 0, ?, ?, ?)");
  const step = db.query(
    `INSERT INTO luma_journal_steps (run_id, step_id, seq, kind, name, digest, status, begins, attempts, output, started_at, finished_at, duration_ms, detail)
     VALUES (?, ?, ?, ?, ?, 'd', 'ok', 1, 1, ?, ?, ?, ?, ?)`,
  );
  const answer = JSON.stringify({ ok: { text: '{"total":3}', toolCalls: [], finish: "stop", usage: { input: 70, output: 9 } } });
  const asked = JSON.stringify({ agent: "Worker", provider: "openai", model_name: "gpt-5.4-mini", system: null, messages: [{ role: "user", text: "Add 1 and 2." }], usage: { input: 70, output: 9 }, cost_usd: 0.0000355 });
  db.transaction(() => {
    for (let i = 0; i < RUNS; i++) {
      const id = `bulk-${String(i).padStart(5, "0")}`;
      const t = now + i * 60_000;
      run.run(id, i % 10 === 0 ? "failed" : "finished", t, t + 1500, 2);
      step.run(id, "main/Worker.run#1/1.req1", 0, "model", "M", answer, t, t + 800, 800, asked);
      step.run(id, "main/2", 1, "tool", "effect", JSON.stringify({ ok: { done: i } }), t + 900, t + 1000, 100, JSON.stringify({ input: { n: i }, mode: "direct", cache_hit: i % 3 === 0 }));
    }
    const t = Date.now();
    run.run("big-1", "finished", t, t + STEPS, STEPS);
    for (let i = 1; i <= STEPS; i++) step.run("big-1", `main/Batch.go#1/${i}`, i - 1, "tool", "effect", JSON.stringify({ ok: { done: i } }), t + i, t + i + 1, 0.4, JSON.stringify({ input: { n: i }, mode: "direct", agent: "Batch" }));
  })();
  db.close();
};

beforeAll(async () => {
  if (!enabled) return;
  // A first real run creates the journal (schema and header).
  await Bun.write(p!.path("seed.luma"), 'print("seed")\n');
  expect((await p!.run(["seed.luma", "--run-id", "seed"], {})).exitCode).toBe(0);
  fill(p!.path("runs.sqlite"));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});
afterAll(async () => {
  p?.stop();
  await browser?.close();
});

describe.skipIf(!enabled)("luma ui at scale", () => {
  test("10,000 runs: first paint and the list; 5,000 steps: scrolled end to end", async () => {
    const url = await p!.serve();
    const t0 = performance.now();
    const listed = (await (await fetch(url + "api/runs")).json()) as unknown[];
    const apiMs = performance.now() - t0;
    expect(listed.length).toBe(RUNS + 2);
    const t1 = performance.now();
    expect(((await (await fetch(url + "api/runs")).json()) as unknown[]).length).toBe(RUNS + 2);
    const apiWarmMs = performance.now() - t1;

    const pg = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const start = Date.now();
    await pg.goto(url);
    await pg.waitForSelector(`body[data-runs-loaded="${RUNS + 2}"]`, { timeout: 30_000 });
    const listedMs = Date.now() - start;
    const fcp = await pg.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1);
    const rowsInDom = await pg.$$eval(".run-row", (r) => r.length);
    expect(rowsInDom).toBeLessThan(120);
    await pg.selectOption(".filter", "failed");
    await pg.waitForFunction(`document.querySelector(".count").textContent === "1000 of ${RUNS + 2} runs"`);
    await pg.selectOption(".filter", "all");
    await pg.fill(".search", "bulk-09999");
    await pg.waitForSelector('[data-run="bulk-09999"]');
    expect(await pg.$$eval(".run-row", (r) => r.length)).toBe(1);

    const openStart = Date.now();
    await pg.goto(url + "#/run/" + encodeURIComponent("0:big-1"));
    await pg.waitForSelector(`body[data-steps-loaded="${STEPS}"]`, { timeout: 30_000 });
    const openMs = Date.now() - openStart;
    const scroll = (await pg.evaluate(SCROLL_TO_END)) as { totalMs: number; frames: number; medianFrameMs: number; worstFrameMs: number; lastStep: string | null };
    expect(scroll.lastStep).toBe(`main/Batch.go#1/${STEPS}`);
    expect(await pg.$$eval(".step", (r) => r.length)).toBeLessThan(120);
    console.log(
      `luma ui scale: /api/runs ${RUNS} runs ${apiMs.toFixed(0)} ms cold, ${apiWarmMs.toFixed(0)} ms warm; first contentful paint ${fcp.toFixed(0)} ms; ` +
        `list shown ${listedMs} ms; ${rowsInDom} rows in the DOM; run of ${STEPS} steps opened ${openMs} ms; scrolled end to end in ${scroll.frames} pages, ` +
        `${scroll.totalMs.toFixed(0)} ms (median frame ${scroll.medianFrameMs.toFixed(1)} ms, worst ${scroll.worstFrameMs.toFixed(1)} ms)`,
    );
    await pg.close();
  });
});

/**
 * `luma ui` (issue #31 §1) in a real browser: headless Chromium from Debian's package, driven
 * by playwright-core, against the real `dist/luma ui` serving a real SQLite journal and
 * threads store that real `dist/luma` runs wrote (their asks answered by the fake provider in
 * OpenAI's wire format). Opens the runs list, opens a run (its ask's messages, its tool
 * calls' inputs), approves the waiting call from the page, resumes the run and sees it
 * finish; watches a running run's steps arrive; lists the stored threads, searches them and
 * reads one; the usage charts.
 * Each view's screenshot is taken; with LUMA_UPDATE=1 into docs/ui-*.png (docs/ui.md shows them).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { REPO } from "../support/luma-binary";
import { browserAvailable, CHROMIUM, UiProject } from "./ui-project";

const enabled = browserAvailable();
/** docs/ui-*.png are rewritten with LUMA_UPDATE=1 (as golden files are); otherwise the screenshots go to a temp directory. */
const SHOTS = process.env.LUMA_UPDATE === "1" ? join(REPO, "docs") : mkdtempSync(join(tmpdir(), "luma-ui-shots-"));

let browser: Browser;
let fake: FakeProvider;
const projects: UiProject[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!enabled) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  fake = await startFakeProvider();
});
afterAll(async () => {
  for (const p of projects) p.stop();
  await browser?.close();
  fake?.stop();
});

const project = (): UiProject => {
  const p = new UiProject();
  projects.push(p);
  return p;
};

const page = async (): Promise<Page> => {
  const pg = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  pg.on("pageerror", (e) => consoleErrors.push(String(e)));
  // A Content-Security-Policy refusal (an inline style, a script from elsewhere) is a console error.
  pg.on("console", (m) => void (m.type() === "error" && consoleErrors.push(m.text())));
  return pg;
};

const shot = (pg: Page, name: string) => pg.screenshot({ path: join(SHOTS, `ui-${name}.png`) });

describe.skipIf(!enabled)("luma ui in Chromium", () => {
  test("runs list → a run's timeline → approve the waiting call → the resumed run finishes; the thread and usage views", async () => {
    const p = project();
    fake.script([{ toolCalls: [{ name: "effect", args: { n: 1 } }, { name: "effect", args: { n: 2 } }] }, { json: { total: 3 } }]);
    const env = { OPENAI_API_KEY: "sk-test-ui-secret-key", LUMA_BASE_URL_M: fake.baseUrl("openai") };
    const first = await p.run(["flow.luma", "--run-id", "invoice-7"], env);
    expect(first.exitCode).toBe(75);
    const url = await p.serve();
    const pg = await page();

    await pg.goto(url);
    await pg.waitForSelector('[data-run="invoice-7"][data-status="waiting"]');
    expect(await pg.textContent('[data-run="invoice-7"]')).toContain("Worker");
    await shot(pg, "runs");

    await pg.click('[data-run="invoice-7"]');
    await pg.waitForSelector('.pending[data-step="main/2"]');
    const pendingText = await pg.textContent(".pending");
    expect(pendingText).toContain("send_invoice");
    expect(pendingText).toContain('"api_token":"[redacted]"');
    // The timeline: the ask's two requests and the two native tool calls between them.
    await pg.waitForSelector('[data-step="main/Worker.run#1/1.req2"]');
    await pg.click('[data-step="main/Worker.run#1/1.req2"]');
    const detail = await pg.textContent(".side");
    expect(detail).toContain("Call effect with 1 and 2, then answer the total.");
    expect(detail).toContain('"done": 2');
    await pg.click('[data-step="main/Worker.run#1/1.req1.call1"]');
    expect(await pg.textContent(".side pre.input")).toContain('"n": 1');
    await shot(pg, "run");

    await pg.click(".pending button.approve");
    await pg.waitForSelector("#run-status.s-resumable");
    expect(await pg.textContent(".message")).toContain("approved send_invoice at main/2");
    await shot(pg, "approved");

    // Resumed as durable runs resume: the same program, the same --run-id; the page follows it.
    const resumed = await p.run(["flow.luma", "--run-id", "invoice-7"], env);
    expect({ exit: resumed.exitCode, out: resumed.stdout }).toEqual({ exit: 0, out: "total 3\nsent 30\n" });
    await pg.waitForSelector("#run-status.s-finished", { timeout: 10_000 });
    await pg.waitForSelector('[data-step="main/2"]');
    expect(await pg.textContent("body")).not.toContain("sk-test-ui-secret-key");
    expect(await pg.textContent("body")).not.toContain("tok-secret-123");

    // The store lists its threads (their ids kept beside their digests); searching filters them; a click opens one.
    await pg.goto(url + "#/threads");
    await pg.waitForSelector("body[data-threads-loaded='1']");
    expect(await pg.textContent('[data-thread="customer-42"]')).toContain("1 exchange");
    await pg.fill(".thread-id", "nobody");
    expect(await pg.$$('[data-thread="customer-42"]')).toHaveLength(0);
    await pg.fill(".thread-id", "customer");
    await pg.click('[data-thread="customer-42"]');
    await pg.waitForSelector("body[data-thread-loaded='5']");
    expect(pg.url()).toContain("#/threads/customer-42");
    expect(await pg.$$eval(".messages .msg", (ms) => ms.map((m) => m.getAttribute("data-role")))).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    await shot(pg, "threads");

    await pg.goto(url + "#/usage");
    await pg.waitForSelector("body[data-usage-loaded]");
    expect(await pg.textContent('[data-chart="Tokens per model"]')).toContain("M: 147 tokens");
    expect(await pg.textContent('[data-chart="Calls per tool"]')).toContain("effect: 2 calls");
    expect(await pg.$$eval('[data-chart="Tokens per model"] rect', (r) => r.length)).toBeGreaterThan(0);
    await shot(pg, "usage");
    await pg.close();
    expect(consoleErrors).toEqual([]);
  });

  test("live: a journaled run in progress shows each step as it is journaled, then finishes", async () => {
    const p = project();
    const running = p.spawn(["gated.luma", "--run-id", "live-1"]);
    // The run creates the journal as it starts; the page is opened on it while the run waits at its first gate.
    while (!existsSync(p.path("runs.sqlite")) || !(await p.run(["runs", "--format", "json"])).stdout.includes('"live-1"')) await Bun.sleep(50);
    const url = await p.serve();
    const pg = await page();
    await pg.goto(url + "#/run/" + encodeURIComponent("0:live-1"));
    await pg.waitForSelector("#run-status.s-running", { timeout: 15_000 });
    await pg.waitForSelector('[data-step="main/1"].st-begun');
    writeFileSync(p.path("release-1"), "");
    await pg.waitForSelector('[data-step="main/1"].st-ok');
    await pg.waitForSelector('[data-step="main/2"].st-begun');
    await shot(pg, "live");
    writeFileSync(p.path("release-2"), "");
    writeFileSync(p.path("release-3"), "");
    expect(await running.exited).toBe(0);
    await pg.waitForSelector("#run-status.s-finished", { timeout: 10_000 });
    expect(await pg.$$eval(".step", (s) => s.length)).toBe(3);
    await pg.close();
  });

  test("nested: parallel branches and the calls they make are shown under their scope, in the program's order", async () => {
    const p = project();
    const r = await p.run(["nested.luma", "--run-id", "nest-1"]);
    expect({ exit: r.exitCode, out: r.stdout }).toEqual({ exit: 0, out: "24\n" });
    const url = await p.serve();
    const pg = await page();
    await pg.goto(url + "#/run/" + encodeURIComponent("0:nest-1"));
    await pg.waitForSelector('body[data-steps-loaded="4"]');
    const rows = await pg.$$eval(".timeline .row", (rs) => rs.map((r) => r.getAttribute("data-scope") ?? r.getAttribute("data-step")));
    expect(rows).toEqual([
      "main/parallel#1",
      "main/parallel#1/branch#1",
      "main/parallel#1/branch#1/twice#1",
      "main/parallel#1/branch#1/twice#1/1",
      "main/parallel#1/branch#1/twice#1/2",
      "main/parallel#1/branch#2",
      "main/parallel#1/branch#2/twice#1",
      "main/parallel#1/branch#2/twice#1/1",
      "main/parallel#1/branch#2/twice#1/2",
    ]);
    // As laid out (the page's CSP allows no inline style attribute: the indent is set through the CSSOM).
    const indent = (sel: string) => pg.$eval(sel + " .c-step", (e) => (globalThis as unknown as { getComputedStyle(e: unknown): { paddingLeft: string } }).getComputedStyle(e).paddingLeft);
    expect(await indent('[data-scope="main/parallel#1"]')).toBe("0px");
    expect(await indent('[data-scope="main/parallel#1/branch#2/twice#1"]')).toBe("28px");
    expect(await indent('[data-step="main/parallel#1/branch#2/twice#1/2"]')).toBe("42px");
    await pg.close();
  });

  test("deny from the page: the resumed run fails with TOOL_PERMISSION_DENIED, shown on its step", async () => {
    const p = project();
    fake.script([{ toolCalls: [{ name: "effect", args: { n: 1 } }] }, { json: { total: 1 } }]);
    const env = { OPENAI_API_KEY: "k", LUMA_BASE_URL_M: fake.baseUrl("openai") };
    expect((await p.run(["flow.luma", "--run-id", "deny-1"], env)).exitCode).toBe(75);
    const url = await p.serve();
    const pg = await page();
    await pg.goto(url + "#/run/" + encodeURIComponent("0:deny-1"));
    await pg.click(".pending button.deny");
    await pg.waitForSelector("#run-status.s-resumable");
    const resumed = await p.run(["flow.luma", "--run-id", "deny-1"], env);
    expect(resumed.exitCode).toBe(1);
    expect(resumed.stderr).toContain("TOOL_PERMISSION_DENIED");
    await pg.waitForSelector("#run-status.s-failed", { timeout: 10_000 });
    await pg.waitForSelector('[data-step="main/2"].st-error');
    expect(await pg.textContent('[data-step="main/2"]')).toContain("error TOOL_PERMISSION_DENIED");
    await pg.close();
  });

  test("answer a client tool from the page: a value that does not fit is refused naming the field; a valid one is the call's result on resume", async () => {
    const p = project();
    await Bun.write(
      p.path("client.luma"),
      `schema Confirmed { ok: bool  zip: string }
tool confirm_address(street: string) -> Confirmed { handler: "client" }
c = tool confirm_address({ street: "Main St 1" })
print("confirmed", c.ok, c.zip)
`,
    );
    expect((await p.run(["client.luma", "--run-id", "ship-3"])).exitCode).toBe(75);
    const url = await p.serve();
    const pg = await page();
    await pg.goto(url + "#/run/" + encodeURIComponent("0:ship-3"));
    await pg.waitForSelector('.pending[data-step="main/1"]');
    expect(await pg.textContent(".pending")).toContain("Client tool 'confirm_address' waits for an answer");
    await pg.fill(".pending textarea", '{"ok": true}');
    await pg.click(".pending button.answer");
    await pg.waitForFunction(() => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector(".message")?.textContent !== "");
    expect(await pg.textContent(".message")).toContain("Confirmed.zip is required");
    expect(await pg.textContent("#run-status")).toBe("waiting");
    await pg.fill(".pending textarea", '{"ok": true, "zip": "54321"}');
    await pg.click(".pending button.answer");
    await pg.waitForSelector("#run-status.s-resumable");
    const resumed = await p.run(["client.luma", "--run-id", "ship-3"]);
    expect({ exit: resumed.exitCode, out: resumed.stdout }).toEqual({ exit: 0, out: "confirmed true 54321\n" });
    await pg.waitForSelector("#run-status.s-finished", { timeout: 10_000 });
    await pg.close();
  });

  test("a POST from another origin, or without the page's CSRF token, records nothing", async () => {
    const p = project();
    fake.script([{ toolCalls: [{ name: "effect", args: { n: 1 } }] }, { json: { total: 1 } }]);
    await p.run(["flow.luma", "--run-id", "csrf-1"], { OPENAI_API_KEY: "k", LUMA_BASE_URL_M: fake.baseUrl("openai") });
    const url = await p.serve();
    const run = (await (await fetch(url + "api/run?id=0:csrf-1")).json()) as { pending: { digest: string }[] };
    const body = JSON.stringify({ id: "0:csrf-1", step: "main/2", digest: run.pending[0].digest, action: "approve" });
    const noToken = await fetch(url + "api/act", { method: "POST", headers: { "content-type": "application/json", origin: url.slice(0, -1) }, body });
    expect(noToken.status).toBe(403);
    const html = await (await fetch(url)).text();
    const csrf = /luma-csrf" content="([^"]+)"/.exec(html)![1];
    const otherOrigin = await fetch(url + "api/act", { method: "POST", headers: { "content-type": "application/json", origin: "http://evil.example", "x-luma-csrf": csrf }, body });
    expect(otherOrigin.status).toBe(403);
    const wrongDigest = await fetch(url + "api/act", { method: "POST", headers: { "content-type": "application/json", origin: url.slice(0, -1), "x-luma-csrf": csrf }, body: body.replace(run.pending[0].digest, "not-the-digest") });
    expect(await wrongDigest.json()).toMatchObject({ code: "TOOL_PERMISSION_DENIED" });
    const listed = JSON.parse((await p.run(["runs", "--format", "json"])).stdout);
    expect(listed.pending).toMatchObject([{ run: "csrf-1", step: "main/2" }]);
  });
});

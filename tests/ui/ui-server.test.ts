/**
 * `luma ui`'s server through the real `dist/luma ui` (no browser): its start-up errors, the
 * token off loopback, the Host check, trace files as runs, and what the journal records for
 * the timeline — sealed in an encrypted journal, never a secret. Asks are answered by the
 * fake provider in OpenAI's wire format.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { UiProject } from "./ui-project";

const projects: UiProject[] = [];
const fakes: FakeProvider[] = [];
afterAll(() => {
  projects.forEach((p) => p.stop());
  fakes.forEach((f) => f.stop());
});
const project = () => {
  const p = new UiProject();
  projects.push(p);
  return p;
};
const API_KEY = "sk-test-ui-canary-key-777";

/** Everything the journal holds on disk: its file and write-ahead log. */
const journalBytes = (p: UiProject): string =>
  ["runs.sqlite", "runs.sqlite-wal"].map((f) => (existsSync(p.path(f)) ? readFileSync(p.path(f), "latin1") : "")).join("");

/** flow.luma run once with its ask answered: stops at send_invoice, waiting for approval. */
const waitingRun = async (p: UiProject, runId: string, env: Record<string, string> = {}) => {
  const fake = await startFakeProvider();
  fakes.push(fake);
  fake.script([{ toolCalls: [{ name: "effect", args: { n: 1 } }, { name: "effect", args: { n: 2 } }] }, { json: { total: 3 } }]);
  const r = await p.run(["flow.luma", "--run-id", runId], { OPENAI_API_KEY: API_KEY, LUMA_BASE_URL_M: fake.baseUrl("openai"), ...env });
  expect(r.exitCode).toBe(75);
};

describe("luma ui: start-up errors (exit 2, a catalog code each)", () => {
  const cases: [string, string[], Record<string, string>, string][] = [
    ["a non-loopback address without LUMA_UI_TOKEN", ["--http", "0.0.0.0:0"], {}, "Error: luma ui listens on 0.0.0.0, which is not a loopback address: set LUMA_UI_TOKEN (every request must then carry it), or listen on 127.0.0.1.\n  = code E1501 (luma explain E1501)\n"],
    ["--http that is not HOST:PORT", ["--http", "localhost"], {}, "Error: --http 'localhost' is not HOST:PORT (for example 127.0.0.1:4780, [::1]:4780).\n  = code E1502 (luma explain E1502)\n"],
    ["a trace file that does not exist", ["--trace", "nope.jsonl"], {}, "Error: Trace file nope.jsonl does not exist: luma ui shows trace files written by luma … --trace FILE.\n  = code E1504 (luma explain E1504)\n"],
    ["a journal that does not exist", ["--journal", "nope.sqlite"], {}, "Error: Journal nope.sqlite does not exist.\n  = code E0901 (luma explain E0901)\n"],
  ];
  for (const [what, args, env, stderr] of cases) {
    test(what, async () => {
      const r = await project().run(["ui", ...args], env);
      expect({ exit: r.exitCode, stderr: r.stderr, stdout: r.stdout }).toEqual({ exit: 2, stderr, stdout: "" });
    });
  }

  test("nothing to show: no --journal, no --trace, no journal in the config", async () => {
    const p = project();
    await Bun.write(p.path("luma.config.json"), "{}");
    const r = await p.run(["ui"]);
    expect({ exit: r.exitCode, stderr: r.stderr }).toEqual({
      exit: 2,
      stderr: 'Error: luma ui has nothing to show: pass --journal PATH or --trace FILE, or set "journal" in luma.config.json.\n  = code E1503 (luma explain E1503)\n',
    });
  });

  test("an address in use", async () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    try {
      const p = project();
      await waitingRun(p, "busy-1");
      const r = await p.run(["ui", "--http", `127.0.0.1:${taken.port}`]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toStartWith(`Error: luma ui cannot listen on 127.0.0.1:${taken.port}: `);
      expect(r.stderr).toEndWith("  = code E1505 (luma explain E1505)\n");
    } finally {
      taken.stop(true);
    }
  });
});

describe("luma ui: who may use it", () => {
  test("with LUMA_UI_TOKEN every request needs it (bearer, or the cookie ?token= sets); the token is never printed", async () => {
    const p = project();
    await waitingRun(p, "tok-1");
    const token = "ui-token-canary-5150";
    const p2 = p.spawn(["ui", "--http", "127.0.0.1:0"], { LUMA_UI_TOKEN: token });
    const reader = p2.stdout.getReader();
    let printed = new TextDecoder().decode((await reader.read()).value);
    const url = /luma ui: (http:\/\/\S+)/.exec(printed)![1];
    try {
      expect((await fetch(url + "api/runs")).status).toBe(401);
      expect((await fetch(url + "api/runs", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(url + "api/runs", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const opened = await fetch(url + `?token=${token}`, { redirect: "manual" });
      expect(opened.status).toBe(303);
      const cookie = opened.headers.get("set-cookie")!;
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Strict");
      const runs = await fetch(url + "api/runs", { headers: { cookie: cookie.split(";")[0] } });
      expect(((await runs.json()) as { run: string }[]).map((r) => r.run)).toEqual(["tok-1"]);
    } finally {
      p2.kill();
    }
    for (let r = await reader.read(); !r.done; r = await reader.read()) printed += new TextDecoder().decode(r.value);
    expect(printed).toContain("open it once with ?token=<LUMA_UI_TOKEN>");
    expect(printed).not.toContain(token);
  });

  test("a request naming another Host is refused (DNS rebinding)", async () => {
    const p = project();
    await waitingRun(p, "host-1");
    const url = await p.serve();
    const port = new URL(url).port;
    const r = await fetch(url + "api/runs", { headers: { host: `rebind.example:${port}` } });
    expect(r.status).toBe(403);
    expect((await fetch(url + "api/runs", { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });
});

describe("luma ui: what it reads", () => {
  test("a trace file is one run: its tool calls, asks and requests, with codes and flags; finished once run.usage is written", async () => {
    const p = project();
    const fake = await startFakeProvider();
    fakes.push(fake);
    fake.script([{ toolCalls: [{ name: "effect", args: { n: 1 } }] }, { json: { total: 1 } }]);
    const r = await p.run(["flow.luma", "--trace", "run.jsonl"], { OPENAI_API_KEY: API_KEY, LUMA_BASE_URL_M: fake.baseUrl("openai"), LUMA_APPROVED_TOOLS: "send_invoice" });
    expect(r.exitCode).toBe(0);
    const url = await p.serve(["--trace", "run.jsonl"]);
    // Only what the command line names (the config's journal, which journaled the same run, is not added).
    const runs = (await (await fetch(url + "api/runs")).json()) as { id: string; status: string; agents: string[]; tokens_in: number }[];
    expect(runs).toMatchObject([{ id: "0:run.jsonl", status: "finished", agents: ["Worker"] }]);
    expect(runs[0].tokens_in).toBeGreaterThan(0);
    const run = (await (await fetch(url + "api/run?id=0:run.jsonl")).json()) as { steps: { kind: string; name: string }[]; actable: boolean };
    expect(run.actable).toBe(false);
    expect(run.steps.map((s) => `${s.kind} ${s.name}`)).toEqual(["model M", "tool effect", "model M", "ask Worker", "tool send_invoice"]);
  });

  test("a trace file still being written is a running run; its steps show as lines arrive, and run.usage ends it", async () => {
    const p = project();
    const line = (e: Record<string, unknown>) => JSON.stringify({ ts: new Date().toISOString(), ...e }) + "\n";
    const call = { event: "tool.call", tool: "effect", agent: null, mode: "direct", attempts: 2, duration_ms: 3.5, outcome: "ok", code: null, step: "main/1", journal_replay: false, cache_hit: false, idempotent_replay: true };
    await Bun.write(p.path("live.jsonl"), line(call) + '{"ts":"2026-'); // the last line half written
    const url = await p.serve(["--trace", "live.jsonl"]);
    type Run = { summary: { status: string; steps: number }; steps: { step: string; retries: number; detail: Record<string, unknown> }[] };
    const first = (await (await fetch(url + "api/run?id=0:live.jsonl")).json()) as Run;
    expect(first.summary).toMatchObject({ status: "running", steps: 1 });
    expect(first.steps[0]).toMatchObject({ step: "main/1", retries: 1, detail: { idempotent_replay: true } });
    await Bun.write(p.path("live.jsonl"), line(call) + line({ ...call, step: "main/2", outcome: "error", code: "TOOL_TIMEOUT", idempotent_replay: false }) + line({ event: "run.usage", models: [], agents: [], total: { cost_usd: null } }));
    const done = (await (await fetch(url + "api/run?id=0:live.jsonl")).json()) as Run & { steps: { code?: string }[] };
    expect(done.summary).toMatchObject({ status: "finished", steps: 2 });
    expect(done.steps[1]).toMatchObject({ step: "main/2", code: "TOOL_TIMEOUT" });
  });

  test("an encrypted journal keeps each step's detail sealed; the page reads it with the key; no secret is in the journal", async () => {
    const p = project();
    await Bun.write(
      p.path("luma.config.json"),
      JSON.stringify({ tool_modules: ["./tools.ts"], journal: { backend: "sqlite", path: "runs.sqlite", encryption: "aes-256-gcm" }, threads: { backend: "sqlite", path: "threads.sqlite" } }),
    );
    const key = { LUMA_IDEMPOTENCY_KEY: "a-passphrase-for-the-ui-test-0123456789" };
    await waitingRun(p, "enc-1", key);
    const db = new Database(p.path("runs.sqlite"), { readonly: true });
    const details = db.query<{ detail: string | null }, []>("SELECT detail FROM luma_journal_steps").all().map((r) => r.detail);
    db.close();
    expect(details.length).toBe(4);
    for (const d of details) {
      expect(d).not.toBeNull();
      expect(d).not.toContain("Call effect");
      expect(d).not.toContain('"n"');
    }
    const bytes = journalBytes(p);
    expect(bytes).not.toContain(API_KEY);
    expect(bytes).not.toContain("tok-secret-123");

    const missingKey = await p.run(["ui", "--http", "127.0.0.1:0"]);
    expect(missingKey.exitCode).toBe(2);
    expect(missingKey.stderr).toContain("E0607");

    const url = await p.serve([], key);
    const run = (await (await fetch(url + "api/run?id=0:enc-1")).json()) as { steps: { step: string; detail: { messages?: { text?: string }[]; input?: unknown } }[] };
    expect(run.steps[0].detail.messages![0].text).toBe("Call effect with 1 and 2, then answer the total.");
    expect(run.steps[1].detail.input).toEqual({ n: 1 });

    // A decision from the page is sealed with the key, as luma approve seals it: the resumed run trusts it.
    const pending = ((await (await fetch(url + "api/run?id=0:enc-1")).json()) as { pending: { digest: string }[] }).pending[0];
    const csrf = /luma-csrf" content="([^"]+)"/.exec(await (await fetch(url)).text())![1];
    const act = await fetch(url + "api/act", {
      method: "POST",
      headers: { "content-type": "application/json", origin: url.slice(0, -1), "x-luma-csrf": csrf },
      body: JSON.stringify({ id: "0:enc-1", step: "main/2", digest: pending.digest, action: "approve" }),
    });
    expect(act.status).toBe(200);
    const resumed = await p.run(["flow.luma", "--run-id", "enc-1"], key);
    expect({ exit: resumed.exitCode, out: resumed.stdout }).toEqual({ exit: 0, out: "total 3\nsent 30\n" });
  });

  test("a plain journal never holds the API key or a secret-looking argument; the waiting call's arguments are redacted on the page", async () => {
    const p = project();
    await waitingRun(p, "plain-1");
    const bytes = journalBytes(p);
    expect(bytes).toContain("Call effect with 1 and 2"); // the detail is there, in the plain journal's JSON
    expect(bytes).not.toContain(API_KEY);
    expect(bytes).not.toContain("tok-secret-123");
    const url = await p.serve();
    const text = await (await fetch(url + "api/run?id=0:plain-1")).text();
    expect(text).toContain('{\\"n\\":3,\\"api_token\\":\\"[redacted]\\"}');
    expect(text).not.toContain(API_KEY);
  });
});

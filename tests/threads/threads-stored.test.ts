/**
 * Issue #26 §1, stored threads through `dist/luma`: `thread(id)` on the `"threads"` store
 * survives the process (sqlite, file, postgres, redis), sealed with `"encryption"` (ids and
 * messages unreadable in the file, a wrong key refused at start-up, E0661); without a store
 * the program does not start (E0660, also from `luma check`); and two real processes asking
 * on one stored thread never interleave — the later append is refused with THREAD_CONFLICT
 * and the thread holds exactly the first exchange.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { luma, project } from "./thread-harness";

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread(args[0])
print(A.say(t, args[1]))
print(len(t), t)
`;
const env = () => ({ ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
const answer = (value: string) => ({ json: { value } });

const pgUrl = process.env.LUMA_TEST_PG_URL;
const redisUrl = process.env.LUMA_TEST_REDIS_URL;

describe("issue #26 §1: a stored thread survives the process", () => {
  const backends: [string, object | undefined][] = [
    ["sqlite", { backend: "sqlite" }],
    ["file", { backend: "file" }],
    ["postgres", pgUrl ? { backend: "postgres", url_env: "THREADS_URL" } : undefined],
    ["redis", redisUrl ? { backend: "redis", url_env: "THREADS_URL" } : undefined],
  ];
  for (const [name, threads] of backends) {
    test.skipIf(threads === undefined)(`${name}: the second process's request carries the first process's exchange`, async () => {
      const dir = project(program, { threads });
      const id = `customer-${crypto.randomUUID()}`;
      const url = name === "postgres" ? pgUrl : name === "redis" ? redisUrl : undefined;
      fake.script([answer("Hello, Ada.")]);
      const first = await luma(dir, [join(dir, "main.luma"), id, "I am Ada."], { ...env(), THREADS_URL: url });
      expect(first.stderr).toBe("");
      expect(first.stdout).toBe(`Hello, Ada.\n2 {"thread":"${id}"}\n`);
      fake.script([answer("You are Ada.")]);
      const second = await luma(dir, [join(dir, "main.luma"), id, "Who am I?"], { ...env(), THREADS_URL: url });
      expect(second.stdout).toBe(`You are Ada.\n4 {"thread":"${id}"}\n`);
      expect(fake.requests[0].body.messages.map((m: any) => m.content)).toEqual(["I am Ada.", "Hello, Ada.", "Who am I?"]);
    });
  }

  test("encrypted: neither the id nor the messages are in the file; another key is refused at start-up (E0661)", async () => {
    const dir = project(program, { threads: { backend: "sqlite", encryption: "aes-256-gcm" } });
    fake.script([answer("Secret answer.")]);
    const first = await luma(dir, [join(dir, "main.luma"), "customer-secret", "my card is 4242"], { ...env(), LUMA_IDEMPOTENCY_KEY: "k1" });
    expect(first.stdout).toBe('Secret answer.\n2 {"thread":"customer-secret"}\n');
    // The WAL is checkpointed into the file when the store closes.
    const bytes = readFileSync(join(dir, ".luma-threads.sqlite")).toString("latin1");
    expect(bytes).toContain("luma_threads");
    expect(bytes).not.toContain("4242");
    expect(bytes).not.toContain("customer-secret");
    const wrong = await luma(dir, [join(dir, "main.luma"), "customer-secret", "again"], { ...env(), LUMA_IDEMPOTENCY_KEY: "k2" });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("LUMA_IDEMPOTENCY_KEY does not match");
    expect(wrong.stderr).toContain("E0661");
  });
});

describe("issue #26 §1: thread(id) needs a store", () => {
  test("no \"threads\" in luma.config.json: exit 2 at start-up naming the call and the key (E0660); luma check says the same", async () => {
    const dir = project(program);
    fake.script([]);
    const r = await luma(dir, [join(dir, "main.luma"), "x", "hi"], env());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('main.luma:7:5: error[E0660]: thread(id) opens a stored thread, but luma.config.json configures no "threads" store.');
    const check = await luma(dir, ["check", join(dir, "main.luma")]);
    expect(check.exitCode).toBe(2);
    expect(check.stderr).toContain("error[E0660]");
    expect(fake.requests.length).toBe(0);
  });
});

describe("issue #26 §1: two processes on one stored thread never interleave", () => {
  for (const backend of ["sqlite", "postgres"]) {
    test.skipIf(backend === "postgres" && !pgUrl)(`${backend}: the ask that finishes second fails with THREAD_CONFLICT and appends nothing`, async () => {
      // The first process's request is held until the second process has finished its exchange.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let firstArrived!: () => void;
      const arrived = new Promise<void>((r) => (firstArrived = r));
      let n = 0;
      const reply = (value: string) =>
        Response.json({
          id: "c", object: "chat.completion", created: 1, model: "gpt-5.4-mini",
          choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify({ value }) }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
      const server = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        async fetch() {
          if (++n === 1) {
            firstArrived();
            await held;
            return reply("first");
          }
          return reply("second");
        },
      });
      try {
        const src = program.replace("print(A.say(t, args[1]))", 'try { print(A.say(t, args[1])) } catch e { print(e.code, e.retryable) }');
        const dir = project(src, { threads: backend === "sqlite" ? { backend: "sqlite" } : { backend: "postgres", url_env: "THREADS_URL" } });
        const id = `race-${crypto.randomUUID()}`;
        const penv = { ...KEYS.openai, LUMA_BASE_URL_M: `http://127.0.0.1:${server.port}/v1`, THREADS_URL: pgUrl };
        const a = luma(dir, [join(dir, "main.luma"), id, "from A"], penv);
        await arrived;
        const b = await luma(dir, [join(dir, "main.luma"), id, "from B"], penv);
        expect(b.stdout).toBe(`second\n2 {"thread":"${id}"}\n`);
        release();
        const ra = await a;
        expect(ra.stdout).toBe(`THREAD_CONFLICT true\n0 {"thread":"${id}"}\n`);
        // The thread holds B's exchange only.
        const after = await luma(dir, [join(dir, "main.luma"), id, "then"], penv);
        expect(after.stdout).toBe(`second\n4 {"thread":"${id}"}\n`);
      } finally {
        release();
        server.stop(true);
      }
    });
  }
});

/**
 * Issue #31: the UI's Threads view lists stored conversations. Each threads store (sqlite,
 * file, postgres, redis) keeps a thread's id beside its digest — sealed when the store is
 * encrypted — so it can list them: through the real `dist/luma`, a program asks in two stored
 * threads (the fake provider answering in OpenAI's wire format), and `luma ui`'s
 * `/api/threads` lists both with their exchanges. A store written before ids were kept still
 * reads: its old threads open by id, and are listed once appended to.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { SqliteThreadStore } from "../../src/runtime/stores/threads/sqlite-thread-store";
import { UiProject } from "./ui-project";

const fake = await startFakeProvider();
const projects: UiProject[] = [];
afterAll(() => {
  projects.forEach((p) => p.stop());
  fake.stop();
});

const PROGRAM = `
model M {
  provider: "openai"
  name: "gpt-5.4-mini"
}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread(args[0])
print(A.say(t, args[1]))
`;

const pgUrl = process.env.LUMA_TEST_PG_URL;
const redisUrl = process.env.LUMA_TEST_REDIS_URL;
const answer = (value: string) => ({ json: { value } });

/** A project whose program asks in `thread(args[0])`, its threads in `threads`, journaled (luma ui shows the journal). */
const threadsProject = (threads: object): UiProject => {
  const p = new UiProject();
  projects.push(p);
  writeFileSync(p.path("chat.luma"), PROGRAM);
  writeFileSync(p.path("luma.config.json"), JSON.stringify({ threads, journal: { backend: "sqlite", path: "runs.sqlite" } }));
  return p;
};

describe("luma ui lists the threads of every store kind", () => {
  const kinds: [string, object | undefined, string | undefined][] = [
    ["sqlite", { backend: "sqlite", path: "threads.sqlite" }, undefined],
    ["file", { backend: "file", path: "threads.json" }, undefined],
    ["postgres", pgUrl ? { backend: "postgres", url_env: "THREADS_URL" } : undefined, pgUrl],
    ["redis", redisUrl ? { backend: "redis", url_env: "THREADS_URL" } : undefined, redisUrl],
  ];
  for (const [kind, threads, url] of kinds) {
    test.skipIf(threads === undefined)(`${kind}: two threads asked in are listed by id, with their exchanges`, async () => {
      const p = threadsProject(threads!);
      // The network stores are shared with other tests: this test's threads carry a prefix of their own.
      const prefix = `list-${kind}-${crypto.randomUUID().slice(0, 8)}`;
      const env = { OPENAI_API_KEY: "sk-threads-list", LUMA_BASE_URL_M: fake.baseUrl("openai"), THREADS_URL: url };
      fake.script([answer("Hello."), answer("Again."), answer("Hi Bo.")]);
      for (const [id, text] of [[`${prefix}-ada`, "I am Ada."], [`${prefix}-ada`, "Me again."], [`${prefix}-bo`, "I am Bo."]]) {
        const ran = await p.run(["chat.luma", id, text], env);
        expect({ exit: ran.exitCode, err: ran.stderr }).toEqual({ exit: 0, err: expect.stringMatching(/^run: r-\S+\n$/) });
      }
      const served = await p.serve([], env);
      const listed = (await (await fetch(served + "api/threads")).json()) as { store: string; threads: { id: string; version: number }[] };
      expect(listed.store).toStartWith(kind);
      expect(listed.threads.filter((t) => t.id.startsWith(prefix))).toEqual([{ id: `${prefix}-ada`, version: 2 }, { id: `${prefix}-bo`, version: 1 }]);
      const ada = (await (await fetch(served + `api/thread?id=${prefix}-ada`)).json()) as { messages: { text: string }[] };
      expect(ada.messages.map((m) => m.text)).toEqual(["I am Ada.", "Hello.", "Me again.", "Again."]);
    });
  }

  test("encrypted (sqlite, file): the ids are sealed in the store, and listed with the key", async () => {
    for (const threads of [{ backend: "sqlite", path: "threads.sqlite", encryption: "aes-256-gcm" }, { backend: "file", path: "threads.json", encryption: "aes-256-gcm" }]) {
      const p = threadsProject(threads);
      const env = { OPENAI_API_KEY: "sk-threads-list", LUMA_BASE_URL_M: fake.baseUrl("openai"), LUMA_IDEMPOTENCY_KEY: "threads list passphrase" };
      fake.script([answer("Hello.")]);
      expect((await p.run(["chat.luma", "customer-sealed-77", "hi"], env)).exitCode).toBe(0);
      expect(readFileSync(p.path(threads.path)).toString("latin1")).not.toContain("customer-sealed-77");
      const served = await p.serve([], env);
      const listed = (await (await fetch(served + "api/threads")).json()) as { threads: { id: string }[] };
      expect(listed.threads.map((t) => t.id)).toEqual(["customer-sealed-77"]);
    }
  });

  test("a store written before ids were kept: its threads still open by id, and are listed once appended to", async () => {
    const p = threadsProject({ backend: "sqlite", path: "threads.sqlite" });
    // The earlier layout: no id column.
    const db = new Database(p.path("threads.sqlite"), { create: true });
    db.exec("CREATE TABLE luma_threads_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
    db.exec("CREATE TABLE luma_threads (kd TEXT PRIMARY KEY, version INTEGER NOT NULL, messages TEXT NOT NULL) WITHOUT ROWID");
    db.query("INSERT INTO luma_threads_meta VALUES ('header', ?)").run(JSON.stringify({ format: "luma-threads", version: 1, encryption: "none" }));
    db.close();
    const store = SqliteThreadStore.open({ path: p.path("threads.sqlite"), displayPath: "threads.sqlite" });
    expect(await store.append("old-1", 0, [{ role: "user", text: "from before", time: "2026-01-01T00:00:00.000Z" }])).toBe(true);
    await store.close();
    // What the earlier Luma wrote: the row without its id.
    const raw = new Database(p.path("threads.sqlite"));
    raw.exec("UPDATE luma_threads SET id = NULL");
    raw.close();
    const env = { OPENAI_API_KEY: "sk-threads-list", LUMA_BASE_URL_M: fake.baseUrl("openai") };
    writeFileSync(p.path("noop.luma"), "print(1)\n");
    expect((await p.run(["noop.luma"], env)).exitCode).toBe(0); // the journal luma ui shows
    const served = await p.serve([], env);
    expect(((await (await fetch(served + "api/threads")).json()) as { threads: unknown[] }).threads).toEqual([]);
    expect(((await (await fetch(served + "api/thread?id=old-1")).json()) as { messages: { text: string }[] }).messages.map((m) => m.text)).toEqual(["from before"]);
    fake.script([answer("Welcome back.")]);
    expect((await p.run(["chat.luma", "old-1", "hello again"], env)).exitCode).toBe(0);
    expect(((await (await fetch(served + "api/threads")).json()) as { threads: unknown[] }).threads).toEqual([{ id: "old-1", version: 2 }]);
  });
});

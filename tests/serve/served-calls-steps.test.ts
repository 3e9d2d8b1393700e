/**
 * Calls from outside the program — `luma serve` requests, `luma mcp` tools/call, `luma chat`
 * lines — through `dist/luma` (docs/durable-runs.md "Served programs"): each call numbers its
 * steps in a scope of its own (`call-N/…`), so two calls never hand a tool handler the same
 * `ctx.idempotencyKey` (a downstream API would drop the second write as a retry of the
 * first). A journal, whose steps are numbered from `main` for one run, is refused at start-up
 * (E0678, exit 2): the calls would share one run and replay each other's receipts.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { connectLuma, textJson } from "../mcp/mcp-harness";
import { luma } from "../threads/thread-harness";
import { chatClient } from "./chat-client";
import { post, project, serve, serveEnds, type Served } from "./serve-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());
const env = { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") };

// The handler answers with what it was handed: the key a downstream API would deduplicate on.
const KEY_TOOLS = `export const lumaTools = {
  book: (i: { id: number }, _signal: unknown, _needs: unknown, ctx: { idempotencyKey?: string }) => ({ id: i.id, key: String(ctx?.idempotencyKey) }),
};
`;

const program = `${modelDecl("openai")}
schema Booking { id: int  key: string }
tool book(id: int) -> Booking { side_effects: "write" }
agent Desk {
  model: M
  tools: [book]
  /// Books one slot.
  fn take(id: int) -> Booking { return tool book({ id: id }) }
}
`;
// \`luma chat --method\` hands the method the chat's thread (not a type a request could send).
const chatProgram = `${program}
agent Line {
  tools: [book]
  fn line(t: Thread, text: string) -> string {
    b = tool book({ id: len(text) })
    return b.key
  }
}
`;

const keyProject = (config?: object, source = program) => {
  const dir = project(source, config);
  writeFileSync(join(dir, "tools.ts"), KEY_TOOLS);
  return dir;
};
const keysDiffer = (a: string, b: string) => {
  expect(a).toMatch(/^p-[0-9a-f-]+\/call-\d+\/(Desk\.take|Line\.line)#1\/1$/);
  expect(b).not.toBe(a);
};

describe("luma serve: every request its own steps", () => {
  let s: Served;
  beforeAll(async () => void (s = await serve(keyProject(), [], env)));
  afterAll(() => s.stop());

  test("POST /agents/Desk/take twice: two idempotency keys", async () => {
    const first = (await (await post(`${s.url}/agents/Desk/take`, { id: 1 })).json()) as { key: string };
    const second = (await (await post(`${s.url}/agents/Desk/take`, { id: 1 })).json()) as { key: string };
    keysDiffer(first.key, second.key);
  });

  // A chat's own ask has no place in a run: its tool calls hand no key at all, never a shared one.
  test("POST /chat/Desk, two turns whose model books: no idempotency key to share", async () => {
    const outputs: string[] = [];
    for (const id of ["turn-1", "turn-2"]) {
      fake.script([{ toolCalls: [{ name: "book", args: { id: 7 }, id: "call_b" }] }, { text: "Booked." }]);
      const chat = chatClient(s.url);
      const turn = await chat.send("Desk", id, [chat.user("Book 7")]);
      expect(turn.errors).toEqual([]);
      outputs.push((turn.message.parts.find((p) => p.type === "tool-book") as any).output.key);
    }
    expect(outputs).toEqual(["undefined", "undefined"]);
  });
});

describe("luma mcp: every tools/call its own steps", () => {
  test("the same method called twice: two idempotency keys", async () => {
    const dir = keyProject();
    const s = await connectLuma([join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--agent", "Desk"], { env });
    try {
      const name = (await s.client.listTools()).tools.map((t) => t.name).find((n) => n.includes("take"))!;
      const first = textJson(await s.client.callTool({ name, arguments: { id: 1 } }));
      const second = textJson(await s.client.callTool({ name, arguments: { id: 1 } }));
      keysDiffer(String(first.key), String(second.key));
    } finally {
      await s.close();
    }
  });
});

describe("luma chat: every line its own steps", () => {
  test("two lines through --method: two idempotency keys", async () => {
    const dir = keyProject(undefined, chatProgram);
    const r = await luma(dir, ["chat", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--agent", "Line", "--method", "line"], env, "hello\nhello\n");
    expect(r.exitCode).toBe(0);
    const keys = r.stdout.split("\n").map((l) => l.match(/p-[0-9a-f-]+\/call-\d+\/Line\.line#1\/1/)?.[0]).filter(Boolean) as string[];
    expect(keys.length).toBe(2);
    keysDiffer(keys[0], keys[1]);
  });
});

describe("a journal with a command that serves many calls: E0678 at start-up", () => {
  const journal = { journal: { backend: "sqlite", path: "runs.sqlite" } };
  const says = (stderr: string, command: string) => {
    expect(stderr).toContain(`${command} cannot use a journal yet (luma.config.json "journal")`);
    expect(stderr).toContain("E0678");
    expect(stderr).not.toContain("    at ");
  };

  test("luma serve exits 2, nothing listens", async () => {
    const ended = await serveEnds(keyProject(journal), ["--http", "127.0.0.1:0"], env);
    expect(ended.exitCode).toBe(2);
    says(ended.stderr, "luma serve");
  });

  test("luma mcp exits 2", async () => {
    const dir = keyProject(journal);
    const r = await luma(dir, ["mcp", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")], env, "");
    expect(r.exitCode).toBe(2);
    says(r.stderr, "luma mcp");
  });

  test("luma chat exits 2", async () => {
    const dir = keyProject(journal);
    const r = await luma(dir, ["chat", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--agent", "Desk"], env, "hi\n");
    expect(r.exitCode).toBe(2);
    says(r.stderr, "luma chat");
  });

  test("without the serving command the same project is a durable run", async () => {
    const dir = keyProject(journal);
    writeFileSync(join(dir, "main.luma"), `${program}\nprint(Desk.take(3).id)\n`);
    const r = await luma(dir, [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")], env);
    expect([r.exitCode, r.stdout.trim()]).toEqual([0, "3"]);
    expect(r.stderr).toMatch(/run: r-/);
  });
});

/**
 * Calls from outside the program — `luma serve` requests, `luma mcp` tools/call, `luma chat`
 * lines — through `dist/luma` (docs/durable-runs.md "Served programs"): each call numbers its
 * steps in a scope of its own (`call-N/…`), so two calls never hand a tool handler the same
 * `ctx.idempotencyKey` (a downstream API would drop the second write as a retry of the
 * first). With a journal, each call is a journal run of its own, numbered from `main` as a
 * `luma FILE` run is, and listed by `luma runs`: no call replays another's receipts.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { connectLuma, textJson } from "../mcp/mcp-harness";
import { luma } from "../threads/thread-harness";
import { chatClient } from "./chat-client";
import { post, project, serve, type Served } from "./serve-harness";

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

describe("a journal with a command that serves many calls: one journal run per call", () => {
  const journal = { journal: { backend: "sqlite", path: "runs.sqlite" } };
  /** `luma runs --json` of the project's journal. */
  const runsOf = async (dir: string) => {
    const r = await luma(dir, ["runs", "--format", "json"], env);
    expect(r.exitCode).toBe(0);
    return (JSON.parse(r.stdout) as { runs: { run: string; status: string; steps: number; program: string }[] }).runs;
  };
  const runKey = /^(r-[0-9a-z]+-[0-9a-f]{8})\/main\/(Desk\.take|Line\.line)#1\/1$/;

  test("luma serve: two requests are two finished runs, each numbered from main, its id in luma-run-id", async () => {
    const dir = keyProject(journal);
    const s = await serve(dir, [], env);
    try {
      const answers = [await post(`${s.url}/agents/Desk/take`, { id: 1 }), await post(`${s.url}/agents/Desk/take`, { id: 1 })];
      const keys: string[] = [];
      for (const a of answers) {
        const key = ((await a.json()) as { key: string }).key;
        const m = key.match(runKey);
        expect(m).not.toBeNull();
        // The header names the run whose steps the key is in.
        expect(a.headers.get("luma-run-id")).toBe(m![1]);
        keys.push(key);
      }
      expect(keys[1]).not.toBe(keys[0]);
      // A failing call is a failed run of its own: the next is not affected.
      expect((await post(`${s.url}/agents/Desk/take`, { id: "x" })).status).toBe(400);
    } finally {
      await s.stop();
    }
    const runs = await runsOf(dir);
    expect(runs.map((r) => [r.status, r.steps])).toEqual([["finished", 1], ["finished", 1]]);
    expect(runs.every((r) => r.program.endsWith("main.luma"))).toBe(true);
  });

  test("luma serve: a chat turn is a run whose model requests and tool calls are its steps", async () => {
    const dir = keyProject(journal);
    const s = await serve(dir, [], env);
    try {
      fake.script([{ toolCalls: [{ name: "book", args: { id: 7 }, id: "call_b" }] }, { text: "Booked." }]);
      const chat = chatClient(s.url);
      const turn = await chat.send("Desk", "turn-journal", [chat.user("Book 7")]);
      expect(turn.errors).toEqual([]);
      // The chat's tool call now has a place in a run: the key a downstream API deduplicates on.
      const key = (turn.message.parts.find((p) => p.type === "tool-book") as any).output.key as string;
      expect(key).toMatch(/^r-[0-9a-z]+-[0-9a-f]{8}-c[0-9a-f]{16}\/main\/1\.req1\.call1$/);
    } finally {
      await s.stop();
    }
    const runs = await runsOf(dir);
    expect(runs.map((r) => r.status)).toEqual(["finished"]);
    // Two model requests and one tool call.
    expect(runs[0].steps).toBe(3);
  });

  // No `luma FILE --run-id` resumes a served call: a call that needs a person nobody can ask is
  // refused as without a journal — never left waiting in a run nothing will continue.
  test("luma serve: a method whose tool needs approval, no approver: 403 at once, its run failed (not pending)", async () => {
    const dir = keyProject(journal, `${program}
agent Guarded {
  tool_policy: "approval"
  tools: [book]
  fn take(id: int) -> Booking { return tool book({ id: id }) }
}
`);
    const s = await serve(dir, [], env);
    try {
      const refused = await post(`${s.url}/agents/Guarded/take`, { id: 1 });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("TOOL_PERMISSION_DENIED");
    } finally {
      await s.stop();
    }
    expect((await runsOf(dir)).map((r) => r.status)).toEqual(["failed"]);
  });

  test("luma mcp: each tools/call is a run", async () => {
    const dir = keyProject(journal);
    const s = await connectLuma([join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--agent", "Desk"], { env });
    try {
      const name = (await s.client.listTools()).tools.map((t) => t.name).find((n) => n.includes("take"))!;
      const first = String(textJson(await s.client.callTool({ name, arguments: { id: 1 } })).key);
      const second = String(textJson(await s.client.callTool({ name, arguments: { id: 2 } })).key);
      expect(first).toMatch(runKey);
      expect(second).toMatch(runKey);
      expect(second.split("/")[0]).not.toBe(first.split("/")[0]);
    } finally {
      await s.close();
    }
    expect((await runsOf(dir)).map((r) => r.status)).toEqual(["finished", "finished"]);
  });

  test("luma chat --method: each line is a run", async () => {
    const dir = keyProject(journal, chatProgram);
    const r = await luma(dir, ["chat", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--agent", "Line", "--method", "line"], env, "hello\nhello\n");
    expect(r.exitCode).toBe(0);
    const keys = r.stdout.split("\n").filter((l) => runKey.test(l));
    expect(keys.length).toBe(2);
    expect(keys[1].split("/")[0]).not.toBe(keys[0].split("/")[0]);
    expect((await runsOf(dir)).map((r) => r.status)).toEqual(["finished", "finished"]);
  });
});

/**
 * Issue #26 §4, scale-out of a chat turn that waits for its client: with a journal, the turn
 * paused for an approval or a client tool's output waits in the journal (a "pending" run
 * named by the assistant message's id), not in the process that asked — the client's answer
 * continues it on any `luma serve` process on the same journal and threads store, even one
 * started after the first was killed. Driven through `dist/luma` and the AI SDK's own client
 * code (chat-client.ts): the continued message is as useChat builds it, with nothing twice.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { UIMessage } from "ai";
import { KEYS } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { luma } from "../threads/thread-harness";
import { chatClient, respond, textOf, withOutput } from "./chat-client";
import { REFUNDS_AGENT, SUPPORT_WITH_APPROVALS } from "./chat-programs";
import { post, project, serve, type Served } from "./serve-harness";

setDefaultTimeout(90_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${SUPPORT_WITH_APPROVALS}${REFUNDS_AGENT}agent Desk {
  model: M
  tools: [Refunds.handle]
}
`;

/** Each run of issue_refund appends a line to RUNS_FILE: the count of lines is the count of runs, across processes. */
const TOOLS = `import { appendFileSync } from "node:fs";
export const lumaTools = {
  issue_refund: async (i: { id: number }) => {
    appendFileSync(process.env.RUNS_FILE!, i.id + "\\n");
    await Bun.sleep(Number(process.env.SLOW_MS ?? 0));
    return { id: i.id, refunded: true };
  },
};
`;

const SQLITE = { journal: { backend: "sqlite", path: "runs.sqlite" }, threads: { backend: "sqlite", path: "threads.sqlite" } };

interface Setup {
  dir: string;
  env: Record<string, string | undefined>;
  /** How many times issue_refund ran, on every process. */
  ran(): number;
  runs(): Promise<{ run: string; status: string }[]>;
}

function setup(config: object = SQLITE, extraEnv: Record<string, string | undefined> = {}): Setup {
  const dir = project(program, config);
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  const file = join(dir, "refunds.txt");
  writeFileSync(file, "");
  const env = { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai"), RUNS_FILE: file, ...extraEnv };
  return {
    dir,
    env,
    ran: () => readFileSync(file, "utf8").split("\n").filter(Boolean).length,
    async runs() {
      const r = await luma(dir, ["runs", "--format", "json"], env);
      expect(r.exitCode).toBe(0);
      return (JSON.parse(r.stdout) as { runs: { run: string; status: string }[] }).runs;
    },
  };
}

const toolPart = (m: UIMessage, name: string) => m.parts.filter((p) => p.type === `tool-${name}`) as any[];

/** Asks on A for a refund of order 7 that waits for approval; the message the client holds, and the user's. */
async function askOnA(a: Served, chatId: string) {
  fake.script([{ text: "Let me refund it. ", toolCalls: [{ name: "issue_refund", args: { id: 7 }, id: "call_r" }] }, { text: "Refunded order 7." }]);
  const chat = chatClient(a.url);
  const ask = chat.user("Refund order 7");
  const first = await chat.send("Support", chatId, [ask]);
  expect(first.errors).toEqual([]);
  const [asked] = toolPart(first.message, "issue_refund");
  expect([asked.state, asked.toolCallId, asked.input, asked.approval.id]).toEqual(["approval-requested", "call_r", { id: 7 }, "approval-call_r"]);
  // The assistant message is named by the turn's journal run.
  expect(first.message.id).toMatch(/^r-[0-9a-z]+-[0-9a-f]{8}-c[0-9a-f]{16}$/);
  return { chat, ask, first };
}

/** The body `useChat` sends with the client's answers (what DefaultChatTransport posts). */
const answerBody = (chatId: string, messages: UIMessage[]) => ({ id: chatId, messages, trigger: "submit-message" });

async function approvedOnB(s: Setup, a: Served, b: Served) {
  const chatId = `chat-${crypto.randomUUID()}`;
  const { ask, first } = await askOnA(a, chatId);
  expect((await s.runs()).map((r) => [r.run, r.status])).toEqual([[first.message.id, "pending"]]);

  const answered = respond(first.message, true);
  const onB = chatClient(b.url);
  const second = await onB.send("Support", chatId, [ask, answered], answered);
  expect(second.errors).toEqual([]);
  // One tool part, now with its output; the text of the first answer once, then the model's answer.
  const parts = toolPart(second.message, "issue_refund");
  expect(parts.map((p) => [p.state, p.output])).toEqual([["output-available", { id: 7, refunded: true }]]);
  expect(textOf(second.message)).toBe("Let me refund it. Refunded order 7.");
  expect(second.message.id).toBe(first.message.id);
  // B asked the model once: the first request was answered from the journal.
  expect(fake.requests.length).toBe(2);
  expect(fake.requests[1].body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_r" });
  expect(s.ran()).toBe(1);

  // The next turn, on A, sees the whole exchange in the thread, the tool's result included.
  fake.script([{ text: "It was refunded." }]);
  const onA = chatClient(a.url);
  const third = await onA.send("Support", chatId, [ask, second.message, onA.user("Was it refunded?")]);
  expect(textOf(third.message)).toBe("It was refunded.");
  const sent = JSON.stringify(fake.requests[0].body.messages);
  expect(sent).toContain("Refund order 7");
  expect(sent).toContain("call_r");
  expect(sent).toContain('\\"refunded\\":true');
  expect(sent).toContain("Refunded order 7.");
  expect((await s.runs()).map((r) => r.status)).toEqual(["finished", "finished"]);
  return { chatId, ask, answered, runId: first.message.id };
}

async function both(s: Setup, body: (a: Served, b: Served) => Promise<void>) {
  const [a, b] = await Promise.all([serve(s.dir, [], s.env), serve(s.dir, [], s.env)]);
  try {
    await body(a, b);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

/** Another run id of the same chat as `runId` (its chat digest kept): one the journal never held. */
const forgedFor = (runId: string) => runId.replace(/^.*(-c[0-9a-f]{16})$/, "r-forged-00000000$1");

describe("issue #26 §4: a paused chat turn continued on another process (SQLite journal and threads)", () => {
  test("approval asked on A, approved on B: the tool runs once, the model answers, the thread has it all, the run finished", async () => {
    const s = setup();
    await both(s, async (a, b) => void (await approvedOnB(s, a, b)));
  });

  test("denied on B: the call is output-denied, the model is told (on_denied: tell_model), the tool never runs", async () => {
    const s = setup();
    await both(s, async (a, b) => {
      const chatId = "deny-on-b";
      fake.script([{ toolCalls: [{ name: "issue_refund", args: { id: 8 }, id: "call_d" }] }, { text: "I could not refund it." }]);
      const onA = chatClient(a.url);
      const ask = onA.user("Refund order 8");
      const first = await onA.send("Support", chatId, [ask]);
      const answered = respond(first.message, false);
      const second = await chatClient(b.url).send("Support", chatId, [ask, answered], answered);
      expect(second.errors).toEqual([]);
      expect(toolPart(second.message, "issue_refund").map((p) => p.state)).toEqual(["output-denied"]);
      expect(textOf(second.message)).toBe("I could not refund it.");
      expect(JSON.stringify(fake.requests[1].body.messages.at(-1))).toContain("TOOL_PERMISSION_DENIED");
      expect(s.ran()).toBe(0);
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["finished"]);
  });

  test("a client tool's call asked on A, its output given on B: the output is the result, and the model goes on", async () => {
    const s = setup();
    await both(s, async (a, b) => {
      const chatId = "client-tool-on-b";
      fake.script([{ toolCalls: [{ name: "confirm_address", args: { address: "1 Main St" }, id: "call_c" }] }, { text: "Thanks, confirmed." }]);
      const onA = chatClient(a.url);
      const ask = onA.user("Ship it to 1 Main St");
      const first = await onA.send("Support", chatId, [ask]);
      expect(toolPart(first.message, "confirm_address").map((p) => [p.state, p.input])).toEqual([["input-available", { address: "1 Main St" }]]);
      expect((await s.runs()).map((r) => r.status)).toEqual(["pending"]);

      const answered = withOutput(first.message, "call_c", { ok: true });
      const second = await chatClient(b.url).send("Support", chatId, [ask, answered], answered);
      expect(second.errors).toEqual([]);
      expect(toolPart(second.message, "confirm_address").map((p) => [p.state, p.output])).toEqual([["output-available", { ok: true }]]);
      expect(textOf(second.message)).toBe("Thanks, confirmed.");
      expect(fake.requests.length).toBe(2);
      expect(fake.requests[1].body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_c", content: JSON.stringify({ ok: true }) });
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["finished"]);
  });

  test("two approvals of one answer (tool_concurrency: 2) both asked on A; a later round's approval pauses again on B; answered on A, the turn ends", async () => {
    const s = setup({ ...SQLITE });
    writeFileSync(join(s.dir, "main.luma"), program.replace('on_denied: "tell_model"', 'on_denied: "tell_model"\n  tool_concurrency: 2'));
    await both(s, async (a, b) => {
      const chatId = "rounds";
      fake.script([
        { text: "Two refunds. ", toolCalls: [{ name: "issue_refund", args: { id: 1 }, id: "call_1" }, { name: "issue_refund", args: { id: 2 }, id: "call_2" }] },
        { text: "And one more. ", toolCalls: [{ name: "issue_refund", args: { id: 3 }, id: "call_3" }] },
        { text: "All three refunded." },
      ]);
      const onA = chatClient(a.url);
      const ask = onA.user("Refund 1, 2 and 3");
      const first = await onA.send("Support", chatId, [ask]);
      expect(toolPart(first.message, "issue_refund").map((p) => [p.toolCallId, p.state])).toEqual([["call_1", "approval-requested"], ["call_2", "approval-requested"]]);

      const answered = respond(first.message, true);
      const second = await chatClient(b.url).send("Support", chatId, [ask, answered], answered);
      expect(second.errors).toEqual([]);
      expect(toolPart(second.message, "issue_refund").map((p) => [p.toolCallId, p.state])).toEqual([["call_1", "output-available"], ["call_2", "output-available"], ["call_3", "approval-requested"]]);
      expect(textOf(second.message)).toBe("Two refunds. And one more. ");
      expect((await s.runs()).map((r) => r.status)).toEqual(["pending"]);

      // The third attempt replays two model answers and two tool calls: the client is sent only what it lacks.
      const again = respond(second.message, true);
      const third = await onA.send("Support", chatId, [ask, again], again);
      expect(third.errors).toEqual([]);
      expect(toolPart(third.message, "issue_refund").map((p) => [p.toolCallId, p.state])).toEqual([["call_1", "output-available"], ["call_2", "output-available"], ["call_3", "output-available"]]);
      expect(textOf(third.message)).toBe("Two refunds. And one more. All three refunded.");
      // Each model request was sent once over the three attempts; each refund ran once.
      expect(fake.requests.length).toBe(3);
      expect(readFileSync(join(s.dir, "refunds.txt"), "utf8").split("\n").filter(Boolean).sort()).toEqual(["1", "2", "3"]);
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["finished"]);
  });

  test("an approval inside another agent's method (tools: [Refunds.handle]) asked on A, approved on B: the method runs once", async () => {
    const s = setup();
    await both(s, async (a, b) => {
      const chatId = "nested";
      fake.script([{ toolCalls: [{ name: "Refunds_handle", args: { id: 9 }, id: "call_h" }] }, { text: "Refunded." }]);
      const onA = chatClient(a.url);
      const ask = onA.user("Refund order 9");
      const first = await onA.send("Desk", chatId, [ask]);
      expect(toolPart(first.message, "Refunds_handle").map((p) => [p.state, p.toolCallId])).toEqual([["approval-requested", "call_h"]]);
      const answered = respond(first.message, true);
      const second = await chatClient(b.url).send("Desk", chatId, [ask, answered], answered);
      expect(second.errors).toEqual([]);
      expect(toolPart(second.message, "Refunds_handle").map((p) => [p.state, p.output])).toEqual([["output-available", true]]);
      expect(textOf(second.message)).toBe("Refunded.");
      expect(s.ran()).toBe(1);
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["finished"]);
  });

  test("A killed (SIGKILL) while the turn waits; the answer sent to a B started afterwards continues it", async () => {
    const s = setup();
    const a = await serve(s.dir, [], s.env);
    const chatId = "killed-a";
    const { ask, first } = await askOnA(a, chatId);
    await a.stop("SIGKILL");
    const b = await serve(s.dir, [], s.env);
    try {
      const answered = respond(first.message, true);
      const second = await chatClient(b.url).send("Support", chatId, [ask, answered], answered);
      expect(second.errors).toEqual([]);
      expect(toolPart(second.message, "issue_refund").map((p) => p.state)).toEqual(["output-available"]);
      expect(textOf(second.message)).toBe("Let me refund it. Refunded order 7.");
      expect(s.ran()).toBe(1);
    } finally {
      await b.stop();
    }
    expect((await s.runs()).map((r) => r.status)).toEqual(["finished"]);
  });

  test("the same answers sent to A and B at once: one continues (the tool runs once), the other is 409 THREAD_CONFLICT", async () => {
    const s = setup(SQLITE, { SLOW_MS: "1500" });
    await both(s, async (a, b) => {
      const chatId = "race";
      const { ask, first } = await askOnA(a, chatId);
      const body = answerBody(chatId, [ask, respond(first.message, true)]);
      const answers = await Promise.all([post(`${a.url}/chat/Support`, body), post(`${b.url}/chat/Support`, body)]);
      const texts = await Promise.all(answers.map((r) => r.text()));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const refused = JSON.parse(texts[answers.findIndex((r) => r.status === 409)]);
      expect([refused.error.code, refused.error.retryable]).toEqual(["THREAD_CONFLICT", true]);
      expect(refused.error.message).toContain(first.message.id);
      const won = texts[answers.findIndex((r) => r.status === 200)];
      expect(won).toContain('"output":{"id":7,"refunded":true}');
      expect(won).toContain('"type":"finish"');
      expect(s.ran()).toBe(1);
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["finished"]);
  });

  test("answers naming a run the journal does not hold, or one that finished, are 400 and nothing runs", async () => {
    const s = setup();
    await both(s, async (a, b) => {
      const { chatId, ask, answered, runId } = await approvedOnB(s, a, b);
      fake.script([{ text: "never sent" }]);
      // A run id ends with its chat's digest: a forged one for this chat is looked up, and is not there.
      const forgedId = forgedFor(runId);
      const unknown = await post(`${b.url}/chat/Support`, answerBody(chatId, [ask, { ...answered, id: forgedId }]));
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as any).error.message).toContain(`Run ${forgedId} is not in journal runs.sqlite`);
      // This chat's real run, sent as another chat's: refused before the journal is asked.
      const elsewhere = await post(`${b.url}/chat/Support`, answerBody("another-chat", [ask, answered]));
      expect([elsewhere.status, ((await elsewhere.json()) as any).error.message]).toEqual([400, expect.stringContaining("names no turn of chat 'another-chat'")]);
      const again = await post(`${a.url}/chat/Support`, answerBody(chatId, [ask, answered]));
      expect(again.status).toBe(400);
      expect(((await again.json()) as any).error.message).toContain(`Run ${runId} has finished`);
      const notAnId = await post(`${a.url}/chat/Support`, answerBody(chatId, [ask, { ...answered, id: "../x y" }]));
      expect(notAnId.status).toBe(400);
      expect(fake.requests.length).toBe(0);
      expect(s.ran()).toBe(1);
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["finished", "finished"]);
  });

  test("answers sent after another prompt than the turn's: the journal's divergence, on the stream; the tool never runs", async () => {
    const s = setup();
    await both(s, async (a, b) => {
      const chatId = "changed-prompt";
      const { chat, first } = await askOnA(a, chatId);
      fake.script([{ text: "never sent" }]);
      const answered = respond(first.message, true);
      const changed = await chatClient(b.url).send("Support", chatId, [chat.user("Refund order 8 instead"), answered], answered);
      expect(changed.errors.join("\n")).toContain(`Run ${first.message.id} diverged from its journal at step main/1.req1`);
      expect(fake.requests.length).toBe(0);
      expect(s.ran()).toBe(0);
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["failed"]);
  });

  test("a new message instead of the answers: a new turn; the waiting one stays pending, never run", async () => {
    const s = setup();
    await both(s, async (a, b) => {
      const chatId = "moved-on";
      const { chat, ask, first } = await askOnA(a, chatId);
      fake.script([{ text: "Sure, what else?" }]);
      const next = await chat.send("Support", chatId, [ask, first.message, chat.user("Never mind")]);
      expect(textOf(next.message)).toBe("Sure, what else?");
      expect(next.message.id).not.toBe(first.message.id);
      // The thread holds the new exchange only: the waiting turn appended nothing.
      const sent = JSON.stringify(fake.requests[0].body.messages);
      expect(sent).not.toContain("call_r");
      expect(s.ran()).toBe(0);
      void b;
    });
    expect((await s.runs()).map((r) => r.status)).toEqual(["pending", "finished"]);
  });
});

describe("issue #26 §4: a paused chat turn continued on another process (PostgreSQL journal and threads)", () => {
  const url = process.env.LUMA_TEST_PG_URL;
  test.skipIf(url === undefined)("approval asked on A, approved on B: the tool runs once, the thread has it all, the run finished", async () => {
    const table = `journal_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const s = setup({ journal: { backend: "postgres", url_env: "STORE_URL", table }, threads: { backend: "postgres", url_env: "STORE_URL" } }, { STORE_URL: url });
    await both(s, async (a, b) => {
      const { chatId, ask, answered, runId } = await approvedOnB(s, a, b);
      // The journal's table holds no such run, and the one it holds has finished: 400 both.
      const unknown = await post(`${b.url}/chat/Support`, answerBody(chatId, [ask, { ...answered, id: forgedFor(runId) }]));
      expect([unknown.status, ((await unknown.json()) as any).error.message]).toEqual([400, expect.stringContaining(`Run ${forgedFor(runId)} is not in journal`)]);
      const again = await post(`${a.url}/chat/Support`, answerBody(chatId, [ask, answered]));
      expect([again.status, ((await again.json()) as any).error.message]).toEqual([400, expect.stringContaining(`Run ${runId} has finished`)]);
    });
  });
});

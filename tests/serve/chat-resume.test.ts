/**
 * Issue #26 §4, `useChat`'s `resume: true` against `luma serve`, through `dist/luma` and the
 * AI SDK's own `DefaultChatTransport.reconnectToStream` (`GET /chat/{Agent}/{id}/stream`):
 * an answer still streaming when its connection dropped (a reload, a flaky network) is
 * re-attached from its start; 204 when nothing streams. Nobody resuming within
 * LUMA_SERVE_RESUME_MS, the turn is aborted and the thread gets nothing.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { chatClient, textOf } from "./chat-client";
import { post, project, serve, type Served } from "./serve-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
schema Order { id: int  status: string }
tool slow_lookup(id: int) -> Order {}
agent Support {
  model: M
  system: "You help with orders."
  tools: [slow_lookup]
}
`;

let s: Served;
beforeAll(async () => {
  s = await serve(project(program), [], { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai"), SLOW_MS: "1500", LUMA_SERVE_RESUME_MS: "3000" });
});
afterAll(() => s.stop());

const transport = () => new DefaultChatTransport<UIMessage>({ api: `${s.url}/chat/Support` });
const user = (text: string): UIMessage => ({ id: "u1", role: "user", parts: [{ type: "text", text }] });

/** Starts chat `id` and drops the connection once the tool call went out. */
async function startAndDrop(id: string, text: string): Promise<void> {
  const res = await post(`${s.url}/chat/Support`, { id, messages: [user(text)] });
  const reader = res.body!.getReader();
  let seen = "";
  while (!seen.includes("tool-input-available")) seen += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
}

async function messageOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream<UIMessage>({ stream })) last = m;
  return last!;
}

describe("issue #26 §4: resuming a chat stream (useChat resume: true)", () => {
  test("a dropped stream is re-attached from its start and runs to its end; the thread keeps the turn", async () => {
    fake.script([{ text: "Looking. ", toolCalls: [{ name: "slow_lookup", args: { id: 4 }, id: "call_r" }] }, { text: "Order 4 is late." }]);
    await startAndDrop("resumed", "Where is order 4?");
    const stream = await transport().reconnectToStream({ chatId: "resumed" });
    expect(stream).not.toBeNull();
    const message = await messageOf(stream!);
    expect(message.parts.map((p) => p.type)).toEqual(["step-start", "text", "tool-slow_lookup", "step-start", "text"]);
    expect((message.parts[2] as any).output).toEqual({ id: 4, status: "late" });
    expect(textOf(message)).toBe("Looking. Order 4 is late.");
    fake.script([{ text: "You're welcome." }]);
    const chat = chatClient(s.url);
    await chat.send("Support", "resumed", [chat.user("thanks")]);
    expect(fake.requests[0].body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content)).toEqual(["Where is order 4?", "thanks"]);
  });

  test("docs/serving.md's routing recipe: the chat id in the query of both requests (for a load balancer's hash) is served as without it", async () => {
    const routed = new DefaultChatTransport<UIMessage>({
      api: `${s.url}/chat/Support`,
      prepareSendMessagesRequest: ({ id, messages, body, trigger, messageId }) => ({ api: `${s.url}/chat/Support?chat=${encodeURIComponent(id)}`, body: { ...body, id, messages, trigger, messageId } }),
      prepareReconnectToStreamRequest: ({ id }) => ({ api: `${s.url}/chat/Support/${encodeURIComponent(id)}/stream?chat=${encodeURIComponent(id)}` }),
    });
    fake.script([{ toolCalls: [{ name: "slow_lookup", args: { id: 6 }, id: "call_6" }] }, { text: "Order 6 is late." }]);
    const first = await routed.sendMessages({ trigger: "submit-message", chatId: "routed/6", messageId: undefined, abortSignal: undefined, messages: [user("Where is order 6?")] });
    const reader = first.getReader();
    while ((await reader.read()).value?.type !== "tool-input-available");
    await reader.cancel();
    const resumed = await routed.reconnectToStream({ chatId: "routed/6" });
    expect(textOf(await messageOf(resumed!))).toBe("Order 6 is late.");
  });

  test("nothing streaming — an unknown chat, or one whose answer ended — is 204: reconnectToStream gives null", async () => {
    expect(await transport().reconnectToStream({ chatId: "never-started" })).toBeNull();
    expect(await transport().reconnectToStream({ chatId: "resumed" })).toBeNull();
    const post405 = await post(`${s.url}/chat/Support/resumed/stream`, {});
    expect([post405.status, post405.headers.get("allow")]).toEqual([405, "GET"]);
  });

  test("nobody resuming within LUMA_SERVE_RESUME_MS: the turn is aborted, the model is not asked again, the thread gets nothing", async () => {
    const quick = await serve(project(program), [], { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai"), SLOW_MS: "1500", LUMA_SERVE_RESUME_MS: "200" });
    try {
      fake.script([{ toolCalls: [{ name: "slow_lookup", args: { id: 5 }, id: "call_q" }] }, { text: "never sent" }]);
      const res = await post(`${quick.url}/chat/Support`, { id: "orphan", messages: [user("Where is order 5?")] });
      const reader = res.body!.getReader();
      let seen = "";
      while (!seen.includes("tool-input-available")) seen += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      await Bun.sleep(2_500);
      expect(fake.requests.length).toBe(1);
      const t = new DefaultChatTransport<UIMessage>({ api: `${quick.url}/chat/Support` });
      expect(await t.reconnectToStream({ chatId: "orphan" })).toBeNull();
    } finally {
      await quick.stop();
    }
  });
});

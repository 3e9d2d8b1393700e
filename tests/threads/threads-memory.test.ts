/**
 * Issue #26 §1, threads in memory, through `dist/luma` and the fake provider: `ask … in t`
 * sends the thread's messages before the prompt and appends the exchange (prompt, tool call,
 * tool result, answer); `t.messages` and `len(t)` read them; a failed ask appends nothing;
 * a thread started on one provider family continues on another, each request in its own
 * wire shape; `history_limit` bounds what is sent without separating a call from its result.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { KEYS, modelDecl, type ProviderKind } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { project, run } from "./thread-harness";

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const TOOL_THEN_ANSWER = [
  { text: "Looking.", toolCalls: [{ name: "lookup_order", args: { id: 7 }, id: "call_1" }] },
  { json: { value: "Order 7 has shipped." } },
  { json: { value: "It arrives Thursday." } },
];

const program = (extraAgentKeys = "") => `${modelDecl("openai")}
schema Order { id: int  status: string }
tool lookup_order(id: int) -> Order {}
agent Support {
  model: M
  tools: [lookup_order]
  ${extraAgentKeys}
  fn reply(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread()
print(Support.reply(t, "Where is order 7?"))
print(Support.reply(t, "And when does it arrive?"))
print(len(t))
for m in t.messages {
  print(m.role, m.text, m.agent)
}
`;

describe("issue #26 §1: ask … in t on an in-memory thread", () => {
  test("the second ask sends the first exchange (prompt, tool call, result, answer) before its prompt; messages and len read it", async () => {
    fake.script(TOOL_THEN_ANSWER);
    const r = await run(project(program()), { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.slice(0, 3)).toEqual(["Order 7 has shipped.", "It arrives Thursday.", "6"]);
    expect(lines.slice(3)).toEqual([
      "user Where is order 7? null",
      "assistant Looking. Support",
      'tool {"id":7,"status":"shipped"} Support',
      "assistant Order 7 has shipped. Support",
      "user And when does it arrive? null",
      "assistant It arrives Thursday. Support",
    ]);
    const third = fake.requests[2].body;
    expect(third.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(third.messages[1].tool_calls[0]).toEqual({ id: "call_1", type: "function", function: { name: "lookup_order", arguments: '{"id":7}' } });
    expect(third.messages[2]).toEqual({ role: "tool", tool_call_id: "call_1", content: '{"id":7,"status":"shipped"}' });
    expect(third.messages[3]).toEqual({ role: "assistant", content: "Order 7 has shipped." });
    expect(third.messages[4]).toEqual({ role: "user", content: "And when does it arrive?" });
  });

  test("a failed ask appends nothing: the thread is as before it", async () => {
    fake.script([{ json: { value: "Hello." } }, { status: 400, message: "bad request" }]);
    const src = `${modelDecl("openai")}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread()
print(A.say(t, "hi"))
try { A.say(t, "again") } catch e { print(e.code) }
print(len(t))
`;
    const r = await run(project(src), { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.stdout).toBe("Hello.\nPROVIDER_ERROR\n2\n");
  });

  test("t.messages is a copy: changing it changes nothing; two threads are separate", async () => {
    fake.script([{ json: { value: "One." } }]);
    const src = `${modelDecl("openai")}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread()
u = thread()
print(A.say(t, "hi"))
ms = t.messages
ms[0].text = "changed"
print(t.messages[0].text, len(u), t == u, t == t)
try { t.messages = [] } catch e { print(e.code, len(t)) }
`;
    const r = await run(project(src), { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("One.\nhi 0 false true\nRUNTIME_ERROR 2\n");
  });

  test("stream ask … in t streams the answer and appends it", async () => {
    fake.script([{ text: "Streamed hello." }, { text: "Second." }]);
    const src = `${modelDecl("openai")}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { stream ask text -> string in t }
}
t = thread()
A.say(t, "hi")
A.say(t, "more")
print(len(t))
`;
    const r = await run(project(src), { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.stdout).toBe("Streamed hello.\nSecond.\n4\n");
    expect(fake.requests[1].body.stream).toBe(true);
    expect(fake.requests[1].body.messages.map((m: any) => m.content)).toEqual(["hi", "Streamed hello.", "more"]);
  });
});

describe("issue #26 §1: a thread started on OpenAI continues on another family, in that family's wire shape", () => {
  const crossProgram = (second: ProviderKind) => `${modelDecl("openai")}${modelDecl(second).replace("model M", "model N")}
schema Order { id: int  status: string }
tool lookup_order(id: int) -> Order {}
agent First {
  model: M
  tools: [lookup_order]
  fn reply(t: Thread, text: string) -> string { ask text -> string in t }
}
agent Second {
  model: N
  tools: [lookup_order]
  fn reply(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread()
print(First.reply(t, "Where is order 7?"))
print(Second.reply(t, "And when does it arrive?"))
`;
  for (const second of ["anthropic", "gemini", "openai-responses"] as ProviderKind[]) {
    test(`openai → ${second}`, async () => {
      fake.script(TOOL_THEN_ANSWER);
      const r = await run(project(crossProgram(second)), {
        ...KEYS.openai,
        ...KEYS[second],
        LUMA_BASE_URL_M: fake.baseUrl("openai"),
        LUMA_BASE_URL_N: fake.baseUrl(second),
      });
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("Order 7 has shipped.\nIt arrives Thursday.\n");
      const body = fake.requests[2].body;
      if (second === "anthropic") {
        expect(body.messages).toEqual([
          { role: "user", content: "Where is order 7?" },
          { role: "assistant", content: [{ type: "text", text: "Looking." }, { type: "tool_use", id: "call_1", name: "lookup_order", input: { id: 7 } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: '{"id":7,"status":"shipped"}' }] },
          { role: "assistant", content: [{ type: "text", text: "Order 7 has shipped." }] },
          { role: "user", content: "And when does it arrive?" },
        ]);
      } else if (second === "gemini") {
        expect(body.contents).toEqual([
          { role: "user", parts: [{ text: "Where is order 7?" }] },
          { role: "model", parts: [{ text: "Looking." }, { functionCall: { name: "lookup_order", args: { id: 7 }, id: "call_1" } }] },
          { role: "user", parts: [{ functionResponse: { id: "call_1", name: "lookup_order", response: { output: { id: 7, status: "shipped" } } } }] },
          { role: "model", parts: [{ text: "Order 7 has shipped." }] },
          { role: "user", parts: [{ text: "And when does it arrive?" }] },
        ]);
      } else {
        expect(body.input).toEqual([
          { role: "user", content: "Where is order 7?" },
          { role: "assistant", content: "Looking." },
          { type: "function_call", call_id: "call_1", name: "lookup_order", arguments: '{"id":7}' },
          { type: "function_call_output", call_id: "call_1", output: '{"id":7,"status":"shipped"}' },
          { role: "assistant", content: "Order 7 has shipped." },
          { role: "user", content: "And when does it arrive?" },
        ]);
      }
    });
  }
});

describe("issue #26 §1: history_limit", () => {
  test("sends at most the last N stored messages, never a tool result without its call, starting with the user", async () => {
    fake.script(TOOL_THEN_ANSWER);
    // 4 messages stored after the first exchange; the last 3 would start at the tool result:
    // the result and the answer before the next user message are dropped with it.
    const r = await run(project(program("history_limit: 3")), { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(fake.requests[2].body.messages).toEqual([{ role: "user", content: "And when does it arrive?" }]);
  });

  test("a limit that keeps whole exchanges sends them", async () => {
    fake.script(TOOL_THEN_ANSWER);
    const r = await run(project(program("history_limit: 4")), { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.exitCode).toBe(0);
    expect(fake.requests[2].body.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
  });
});

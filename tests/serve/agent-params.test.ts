/**
 * Issue #26 §4, `luma serve` and agents declared with parameters (`agent Desk(user: User)`),
 * through `dist/luma`: their arguments come from the request body's reserved key `$agent`
 * (validated as a call `Desk(user)` binds them: 400 naming the field), or are fixed for the
 * server's life with `--agent-args Desk='{…}'` (checked at start-up, E0654–E0656, E0676). A
 * browser's request may not give them: they are trusted input.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { textOf } from "./chat-client";
import { post, project, serve, serveEnds, type Served } from "./serve-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
schema User { name: string  can_refund: bool }
schema Refund { id: int  refunded: bool }
tool issue_refund(id: int) -> Refund {}
agent Desk(user: User) {
  model: M
  system: "You help {user.name}."
  tools: [issue_refund when user.can_refund]
  fn whoami(greeting: string) -> string { return "{greeting}, {user.name}" }
}
agent Plain {
  fn ping() -> string { return "pong" }
}
`;

const env = { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") };
const ada = { user: { name: "Ada", can_refund: true } };
let s: Served;
beforeAll(async () => {
  s = await serve(project(program), [], env);
});
afterAll(() => s.stop());

const errorOf = async (res: Response) => [res.status, ((await res.json()) as any).error] as const;

describe("issue #26 §4: POST /agents/{Agent}/{method} of an agent with parameters", () => {
  test("the agent's arguments under $agent, the method's beside them", async () => {
    const res = await post(`${s.url}/agents/Desk/whoami`, { $agent: ada, greeting: "Hello" });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe("Hello, Ada");
  });

  const refusals: [string, unknown, Record<string, string>, string][] = [
    ["without $agent: 400 naming the parameters and both ways to give them", { greeting: "Hi" }, {}, "takes parameters (user)"],
    ["a field of the wrong type: 400 naming it", { $agent: { user: { name: 3, can_refund: true } }, greeting: "Hi" }, {}, "Desk.user.name"],
    ["an unknown parameter: 400 naming it", { $agent: { ...ada, boss: true }, greeting: "Hi" }, {}, "no parameter 'boss'"],
    ["$agent not an object: 400", { $agent: "Ada", greeting: "Hi" }, {}, "must be a JSON object"],
    ["$agent for an agent without parameters: 400", { $agent: ada }, {}, "takes no parameters"],
    ["from a browser page (it sends Origin): refused, whatever the origin", { $agent: ada, greeting: "Hi" }, { origin: "https://app.example.com" }, ""],
  ];
  for (const [name, body, headers, says] of refusals) {
    test(name, async () => {
      const agent = name.includes("without parameters") ? "Plain/ping" : "Desk/whoami";
      const [status, error] = await errorOf(await post(`${s.url}/agents/${agent}`, body, headers));
      expect(status).toBe(headers.origin ? 403 : 400);
      expect(error.code).toBe(headers.origin ? "REQUEST_FORBIDDEN" : "REQUEST_INVALID");
      expect(error.message).toContain(says);
    });
  }

  test("with --cors, the allowed origin's page still may not give $agent", async () => {
    const c = await serve(project(program), ["--cors", "https://app.example.com"], env);
    try {
      const [status, error] = await errorOf(await post(`${c.url}/agents/Desk/whoami`, { $agent: ada, greeting: "Hi" }, { origin: "https://app.example.com" }));
      expect([status, error.code]).toEqual([400, "REQUEST_INVALID"]);
      expect(error.message).toContain("browser");
    } finally {
      await c.stop();
    }
  });
});

describe("issue #26 §4: POST /chat/{Agent} of an agent with parameters", () => {
  test("useChat's transport body { $agent } fills the system prompt and the tools' `when`", async () => {
    const send = async (agentArgs: unknown, id: string) => {
      const transport = new DefaultChatTransport<UIMessage>({ api: `${s.url}/chat/Desk`, body: { $agent: agentArgs } });
      const stream = await transport.sendMessages({ trigger: "submit-message", chatId: id, messageId: undefined, abortSignal: undefined, messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }] });
      let last: UIMessage | undefined;
      for await (const m of readUIMessageStream<UIMessage>({ stream })) last = m;
      return last!;
    };
    fake.script([{ text: "Hello Ada." }]);
    expect(textOf(await send(ada, "desk-ada"))).toBe("Hello Ada.");
    expect(fake.requests[0].body.messages[0]).toEqual({ role: "system", content: "You help Ada." });
    expect(fake.requests[0].body.tools.map((t: any) => t.function.name)).toEqual(["issue_refund"]);
    fake.script([{ text: "Hello Bob." }]);
    await send({ user: { name: "Bob", can_refund: false } }, "desk-bob");
    expect(fake.requests[0].body.messages[0]).toEqual({ role: "system", content: "You help Bob." });
    expect(fake.requests[0].body.tools).toBeUndefined();
  });

  test("a chat without them is 400 before anything runs", async () => {
    const res = await post(`${s.url}/chat/Desk`, { id: "x", messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }] });
    const [status, error] = await errorOf(res);
    expect([status, error.code]).toEqual([400, "REQUEST_INVALID"]);
  });
});

describe("issue #26 §4: --agent-args AGENT=JSON fixes them for the server's life", () => {
  test("every request runs with them; a request's $agent is refused", async () => {
    const fixed = await serve(project(program), ["--agent-args", `Desk=${JSON.stringify(ada)}`], env);
    try {
      expect(await (await post(`${fixed.url}/agents/Desk/whoami`, { greeting: "Hi" })).json()).toBe("Hi, Ada");
      const [status, error] = await errorOf(await post(`${fixed.url}/agents/Desk/whoami`, { $agent: { user: { name: "Eve", can_refund: true } }, greeting: "Hi" }));
      expect([status, error.code]).toEqual([400, "REQUEST_INVALID"]);
      expect(error.message).toContain("--agent-args");
    } finally {
      await fixed.stop();
    }
  });

  const bad: [string, string, string][] = [
    ["not AGENT=JSON", JSON.stringify(ada), "E0676"],
    ["an agent not served", `Nobody=${JSON.stringify(ada)}`, "E0676"],
    ["not JSON", "Desk={user", "E0655"],
    ["a field of the wrong type", 'Desk={"user": {"name": 3, "can_refund": true}}', "E0655"],
    ["a missing parameter", "Desk={}", "E0654"],
    ["an agent without parameters", "Plain={}", "E0656"],
  ];
  for (const [name, flag, code] of bad) {
    test(`${name}: does not start (exit 2, ${code})`, async () => {
      const r = await serveEnds(project(program), ["--http", "127.0.0.1:0", "--agent-args", flag], env);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(code);
      expect(r.stderr).not.toContain("    at ");
    });
  }
});

/**
 * Issue #26 §3, `luma chat FILE --agent A [--method m] [--thread ID]` through `dist/luma`,
 * driven through pipes (stdin is not a terminal): each line is a user message, the reply
 * streams to stdout, tool calls are one line each on stderr, EOF or `/exit` ends the chat,
 * the program's top-level code does not run, each message sees the ones before it; with
 * `--method` that method answers, its signature checked at start-up (E0662); `--thread`
 * continues a stored thread.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { orderSupport } from "../serve/chat-programs";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { luma, project } from "./thread-harness";

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${orderSupport(`  fn reply(t: Thread, text: string) -> string { ask "Customer says: {text}" -> string in t }
  fn streamed(t: Thread, text: string) -> string { stream ask text -> string in t }
  fn wrong(text: string) -> string { return text }
`)}print("top-level code ran")
`;
const env = () => ({ ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
const chat = (dir: string, extra: string[], stdin: string, more: Record<string, string> = {}) =>
  luma(dir, ["chat", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), ...extra], { ...env(), ...more }, stdin);

describe("issue #26 §3: luma chat with the agent's own model", () => {
  test("each line a message, replies streamed, a tool call on stderr, the second message sees the first; top level does not run", async () => {
    fake.script([
      { text: "Let me look. ", toolCalls: [{ name: "lookup_order", args: { id: 7 }, id: "call_1" }] },
      { text: "Order 7 has shipped." },
      { text: "Thursday." },
    ]);
    const r = await chat(project(program), ["--agent", "Support"], "Where is order 7?\nWhen does it arrive?\n");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("Let me look. Order 7 has shipped.\nThursday.\n");
    expect(r.stderr).toMatch(/^· lookup_order ok \d+ ms\n$/);
    const third = fake.requests[2].body;
    expect(third.stream).toBe(true);
    expect(third.messages[0]).toEqual({ role: "system", content: "You help with orders." });
    expect(third.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(third.messages.at(-1)).toEqual({ role: "user", content: "When does it arrive?" });
  });

  test("/exit ends the chat: later lines are not sent", async () => {
    fake.script([{ text: "Hi." }, { text: "never" }]);
    const r = await chat(project(program), ["--agent", "Support"], "hello\n/exit\nmore\n");
    expect(r.stdout).toBe("Hi.\n");
    expect(fake.requests.length).toBe(1);
  });

  test("a failed reply prints the error and the chat goes on", async () => {
    fake.script([{ status: 400, message: "bad request" }, { text: "Fine now." }]);
    const r = await chat(project(program), ["--agent", "Support"], "first\nsecond\n");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("Fine now.\n");
    expect(r.stderr).toContain("PROVIDER_ERROR");
    // The failed message appended nothing: the second request holds only the second line.
    expect(fake.requests[1].body.messages.map((m: any) => m.content)).toEqual(["You help with orders.", "second"]);
  });
});

describe("issue #26 §3: luma chat --method", () => {
  test("the method answers each line with the chat's thread; a reply it did not stream is written whole", async () => {
    fake.script([{ json: { value: "Hello there." } }, { json: { value: "Again." } }]);
    const r = await chat(project(program), ["--agent", "Support", "--method", "reply"], "hi\nagain\n");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Hello there.\nAgain.\n");
    expect(fake.requests[1].body.messages.map((m: any) => m.content)).toEqual(["You help with orders.", "Customer says: hi", "Hello there.", "Customer says: again"]);
  });

  test("a method that streams is not written twice", async () => {
    fake.script([{ text: "Streamed." }]);
    const r = await chat(project(program), ["--agent", "Support", "--method", "streamed"], "hi\n");
    expect(r.stdout).toBe("Streamed.\n");
  });

  test("a method without (Thread, string) -> string, an unknown method or agent: start-up error E0662, exit 2", async () => {
    const dir = project(program);
    const wrong = await chat(dir, ["--agent", "Support", "--method", "wrong"], "hi\n");
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("luma chat: method Support.wrong must take (Thread, string) and return string");
    expect(wrong.stderr).toContain("E0662");
    const missing = await chat(dir, ["--agent", "Nobody"], "hi\n");
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("luma chat: the program has no agent 'Nobody' (agents: Support).");
  });

  test("--agent is required (usage error, exit 64)", async () => {
    const dir = project(program);
    const r = await luma(dir, ["chat", join(dir, "main.luma")], env(), "");
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain("luma chat needs --agent NAME");
  });
});

describe("issue #26 §3: luma chat --thread", () => {
  test("continues the stored thread: a second chat sees the first; without a store, E0660", async () => {
    const dir = project(program, { threads: { backend: "sqlite" } });
    fake.script([{ text: "Noted, Ada." }]);
    const first = await chat(dir, ["--agent", "Support", "--thread", "ada"], "I am Ada.\n");
    expect(first.stdout).toBe("Noted, Ada.\n");
    fake.script([{ text: "You are Ada." }]);
    const second = await chat(dir, ["--agent", "Support", "--thread", "ada"], "Who am I?\n");
    expect(second.stdout).toBe("You are Ada.\n");
    expect(fake.requests[0].body.messages.map((m: any) => m.content)).toEqual(["You help with orders.", "I am Ada.", "Noted, Ada.", "Who am I?"]);
    const none = await chat(project(program), ["--agent", "Support", "--thread", "ada"], "hi\n");
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('configures no "threads" store');
  });
});

describe("luma chat --agent-args: an agent with parameters (issue #25) chats with them", () => {
  const withParams = `${modelDecl("openai")}
schema User { name: string  can_refund: bool }
schema Refund { ok: bool }
tool issue_refund(id: int) -> Refund {}
agent Desk(user: User) {
  model: M
  system: "You help {user.name}."
  tools: [issue_refund when user.can_refund]
  fn reply(t: Thread, text: string) -> string { ask "{user.name} says: {text}" -> string in t }
}
`;

  test("the system is filled in and a false `when` keeps its tool out of the request; --method sees the parameters too", async () => {
    fake.script([{ text: "Hello Bob." }]);
    const r = await chat(project(withParams), ["--agent", "Desk", "--agent-args", '{"user": {"name": "Bob", "can_refund": false}}'], "hi\n");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Hello Bob.\n");
    const body = fake.requests[0].body;
    expect(body.messages[0]).toEqual({ role: "system", content: "You help Bob." });
    expect(body.tools).toBeUndefined();
    fake.script([{ json: { value: "ok" } }]);
    const m = await chat(project(withParams), ["--agent", "Desk", "--method", "reply", "--agent-args", '{"user": {"name": "Ada", "can_refund": true}}'], "refund 7\n");
    expect(m.stdout).toBe("ok\n");
    expect(fake.requests[0].body.messages.at(-1)).toEqual({ role: "user", content: "Ada says: refund 7" });
    expect(fake.requests[0].body.tools.map((t: any) => t.function.name)).toEqual(["issue_refund"]);
  });

  test("missing or invalid parameters stop before the first line (exit 2), naming the parameter", async () => {
    const missing = await chat(project(withParams), ["--agent", "Desk"], "hi\n");
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("E0654");
    expect(missing.stderr).toContain("user");
    const invalid = await chat(project(withParams), ["--agent", "Desk", "--agent-args", '{"user": {"name": 3, "can_refund": true}}'], "hi\n");
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toContain("Desk.user.name");
  });
});

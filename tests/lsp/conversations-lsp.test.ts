/**
 * `luma lsp` and conversations (issue #26): completion offers `Thread` and `Message` as types,
 * `thread` as a builtin, `stream` as a keyword, `history_limit` among an agent's keys and the
 * model options (`top_p`, `seed`, `stop`, `reasoning_effort`, `provider_options`) among a
 * model's; hover explains each of them. A document using them all is clean.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;
const URI = "file:///work/conversations.luma";

const PROGRAM = `model M {
  provider: "openai"
  name: "gpt-5.4-mini"
  top_p: 0.9
  seed: 7
  stop: ["END"]
  reasoning_effort: "low"
  provider_options: { user: "ada" }
}

agent Support {
  model: M
  history_limit: 40
  fn reply(t: Thread, text: string) -> string { stream ask text -> string in t }
}

t = thread()
print(Support.reply(t, "Hello"))
m: Message[] = t.messages
print(len(m))
`;

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
  await lsp.open(URI, PROGRAM);
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});

const at = (needle: string, nth = 0, delta = 0) => ({ textDocument: { uri: URI }, position: positionOf(PROGRAM, needle, nth, delta) });
const hover = async (needle: string, nth = 0, delta = 0): Promise<string> => {
  const h: any = await lsp.conn.sendRequest("textDocument/hover", at(needle, nth, delta));
  return h?.contents?.value ?? "";
};

/** Completion labels at a cursor placed in `text` by replacing `‸`. */
async function labelsAt(name: string, text: string): Promise<{ label: string; detail?: string; documentation?: string }[]> {
  const uri = `file:///work/${name}.luma`;
  const offset = text.indexOf("‸");
  const source = text.replace("‸", "");
  await lsp.open(uri, source);
  const before = source.slice(0, offset);
  const line = before.split("\n").length - 1;
  const character = offset - (before.lastIndexOf("\n") + 1);
  const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: { line, character } });
  return r.items;
}

describe("conversations in the editor", () => {
  test("the document is clean", async () => {
    expect((await lsp.diagnostics(URI)).diagnostics).toEqual([]);
  }, LIMIT_MS);

  test("completion: Thread and Message among the types, thread among the builtins, stream among the keywords", async () => {
    const items = await labelsAt("types", `${PROGRAM}fn f(x: T‸) -> int { 1 }\n`);
    const labels = items.map((i) => i.label);
    for (const l of ["Thread", "Message", "thread", "stream", "ask", "in"]) expect(labels).toContain(l);
    expect(items.find((i) => i.label === "Thread")!.documentation ?? items.find((i) => i.label === "Thread")!.detail).toContain("thread(id)");
  }, LIMIT_MS);

  test("completion: history_limit among an agent's keys, the model options among a model's", async () => {
    const agentKeys = (await labelsAt("agent-keys", `agent A {\n  hist‸\n}\n`)).map((i) => i.label);
    expect(agentKeys).toContain("history_limit");
    const modelKeys = (await labelsAt("model-keys", `model M {\n  provider: "openai"\n  ‸\n}\n`)).map((i) => i.label);
    for (const k of ["top_p", "seed", "stop", "reasoning_effort", "provider_options", "temperature"]) expect(modelKeys).toContain(k);
  }, LIMIT_MS);

  test("hover: Thread and Message (built-in types), thread(), stream, history_limit and each model option say what they are", async () => {
    expect(await hover("Thread, text")).toContain("built-in type: A conversation: thread() in memory, thread(id) stored");
    expect(await hover("Message[]")).toContain("built-in type: One message of a thread");
    expect(await hover("thread()")).toContain("thread(…) -> Thread");
    expect(await hover("stream ask")).toContain("the answer's text goes to stdout as it arrives");
    expect(await hover("t.messages")).toContain("t: Thread");
    expect(await hover("history_limit")).toContain("The most stored messages of a thread");
    const docs: Record<string, string> = {
      top_p: "Nucleus sampling",
      seed: "repeatable sampling",
      "stop:": "Strings that end the answer",
      reasoning_effort: "How hard the model thinks",
      provider_options: "merged into every request body",
    };
    for (const [key, doc] of Object.entries(docs)) expect({ key, hover: await hover(key) }).toEqual({ key, hover: expect.stringContaining(doc) });
  }, LIMIT_MS);
});

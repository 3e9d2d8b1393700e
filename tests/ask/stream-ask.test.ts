/**
 * Issue #26 §2, `stream ask PROMPT -> string`, through the real `dist/luma` and the fake
 * provider's real event streams: the answer's text goes to stdout as it arrives — text before
 * a tool call, the tool call, then the rest — nothing else is printed, a newline ends it, and
 * the ask returns all the text it streamed. On every family; from a cassette it recorded; a
 * structured target is a check error (E0295). And it really streams: the fake holds the rest
 * of its answer back until the first words are on luma's stdout.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KEYS, modelDecl, type ProviderKind } from "./ask-harness";
import { ensureBinary, runLuma } from "../support/luma-binary";
import { startFakeProvider } from "../support/fake-provider/fake-provider";

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = (kind: ProviderKind) => `${modelDecl(kind)}
schema Order { id: int  status: string }
tool lookup_order(id: int) -> Order {}
agent Support {
  model: M
  tools: [lookup_order]
  fn reply(text: string) -> string { stream ask text -> string }
}
r = Support.reply("Where is order 7?")
print("returned: {r}")
`;

function project(kind: ProviderKind): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-stream-"));
  writeFileSync(join(dir, "main.luma"), program(kind));
  writeFileSync(join(dir, "tools.ts"), `export const lumaTools = { lookup_order: (i: { id: number }) => ({ id: i.id, status: "shipped" }) };\n`);
  return dir;
}

async function luma(dir: string, args: string[], env: Record<string, string | undefined>) {
  const p = Bun.spawn([ensureBinary(), join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, exitCode };
}

const SCRIPT = [
  { text: "Let me look that up. ", toolCalls: [{ name: "lookup_order", args: { id: 7 }, id: "call_1" }] },
  { text: "Order 7 has shipped and arrives on Thursday." },
];
const ANSWER = "Let me look that up. Order 7 has shipped and arrives on Thursday.";

describe("issue #26 §2: stream ask writes the answer as it arrives and returns all of it", () => {
  for (const kind of ["openai", "openai-responses", "azure", "anthropic", "gemini"] as ProviderKind[]) {
    test(`${kind}: text, a tool call between segments, the rest; a newline; the whole text returned`, async () => {
      fake.script(SCRIPT);
      const r = await luma(project(kind), [], { ...KEYS[kind], LUMA_BASE_URL_M: fake.baseUrl(kind) });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(`${ANSWER}\nreturned: ${ANSWER}\n`);
      // Streamed on the wire, and no response format asked for: the answer is text.
      const [first, second] = fake.requests;
      if (kind === "gemini") expect(first.path).toEndWith(":streamGenerateContent");
      else expect(first.body.stream).toBe(true);
      expect(JSON.stringify(second.body)).not.toContain("json_schema");
      expect(JSON.stringify(second.body)).not.toContain("responseJsonSchema");
    });
  }

  test("recorded with --record, replayed offline from the cassette: the same output", async () => {
    const dir = project("anthropic");
    fake.script(SCRIPT);
    const live = await luma(dir, ["--record", "c.jsonl"], { ...KEYS.anthropic, LUMA_BASE_URL_M: fake.baseUrl("anthropic") });
    expect(live.exitCode).toBe(0);
    const replay = await luma(dir, ["--replay", "c.jsonl"], {});
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toBe(live.stdout);
  });

  test("a structured target is a check error naming the target (E0295)", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-stream-check-"));
    writeFileSync(join(dir, "main.luma"), `${modelDecl("openai")}schema Answer { text: string }\nagent A {\n  model: M\n  fn run() -> Answer { stream ask "hi" -> Answer }\n}\n`);
    const r = runLuma(["check", join(dir, "main.luma")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0295]: 'stream ask' writes text as it arrives, so its target must be 'string', not 'Answer'.");
  });

  test("`stream` stays a name: a variable called stream, and `stream` then `ask` on the next line", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-stream-name-"));
    writeFileSync(join(dir, "main.luma"), `stream = 3\nprint(stream + 1)\n`);
    const r = runLuma([join(dir, "main.luma")]);
    expect(r.stdout).toBe("4\n");
  });
});

describe("issue #26 §2: it really streams", () => {
  test("the first words are on stdout while the provider still holds the rest of its answer", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const event = (text: string) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-5.4-mini", choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(
          new ReadableStream({
            async start(c) {
              c.enqueue(new TextEncoder().encode(event("First words, ")));
              await held; // until the test has seen them on luma's stdout
              c.enqueue(new TextEncoder().encode(event("then the rest.")));
              c.enqueue(new TextEncoder().encode(`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`));
              c.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    });
    try {
      const dir = project("openai");
      const p = Bun.spawn([ensureBinary(), join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")], {
        cwd: dir,
        env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", ...KEYS.openai, LUMA_BASE_URL_M: `http://127.0.0.1:${server.port}/v1` },
        stdout: "pipe",
        stderr: "pipe",
      });
      const reader = p.stdout.getReader();
      let seen = "";
      while (!seen.includes("First words, ")) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      expect(seen).toBe("First words, ");
      release();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      expect(await p.exited).toBe(0);
      expect(seen).toBe("First words, then the rest.\nreturned: First words, then the rest.\n");
    } finally {
      release();
      server.stop(true);
    }
  });
});

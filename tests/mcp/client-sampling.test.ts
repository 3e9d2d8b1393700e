/**
 * Sampling requests from MCP servers (docs/mcp.md "Sampling requests from servers"), through
 * `dist/luma`: `mcp_servers.<name>.sampling: { model, approval }` answers a server's
 * `sampling/createMessage` — sent from inside a tool call — with a model of the program, on
 * the normal provider path (the fake provider answers), counted in `--usage`. The capability
 * is declared only for a configured server; any other server's request is refused.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { ensureBinary } from "../support/luma-binary";
import { hasScript, startOnPty } from "../pipeline/pty-session";
import { project, runLumaAsync, stdioServers } from "./mcp-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const MODEL = `model M {
  provider: "openai"
  name: "gpt-5.4-mini"
  price_in_per_mtok: 0.25
  price_out_per_mtok: 2.0
}
`;

const SAMPLE = `schema Said { text: string }
tool sample(prompt: string) -> Said { mcp: "local"  side_effects: "read" }
print(tool sample({prompt: "Summarize: MCP lets servers ask the client's model."}).text)
`;

const run = (sampling: object | undefined, program: string, args: string[] = [], env: Record<string, string> = {}) => {
  const local = stdioServers().local;
  const p = project({ mcp_servers: { local: sampling === undefined ? local : { ...local, sampling }, everything: stdioServers().everything } }, program);
  return runLumaAsync([p.file, ...args], { cwd: p.dir, env: { OPENAI_API_KEY: "sk-sampling-test", LUMA_BASE_URL_M: fake.baseUrl("openai"), ...env } });
};

describe("MCP client: sampling requests from servers (mcp_servers.<name>.sampling)", () => {
  test('approval "allow": the named model answers on the provider path, with the system prompt and earlier messages; --usage counts it', async () => {
    fake.script([{ text: "Servers can borrow the client's model." }]);
    const r = await run({ model: "M", approval: "allow" }, MODEL + SAMPLE, ["--usage"]);
    expect(r.stdout).toBe("M: Servers can borrow the client's model.\n");
    expect(r.exitCode).toBe(0);
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!.body.messages.map((m: { role: string; content: string }) => [m.role, m.content]);
    expect(sent).toEqual([
      ["system", "You are a terse summarizer."],
      ["user", "Say hello."],
      ["assistant", "hello"],
      ["user", "Summarize: MCP lets servers ask the client's model."],
    ]);
    expect(fake.requests[0]!.body.response_format).toBeUndefined();
    // The usage table charges the answer to the model: one ask, one request.
    expect(r.stderr).toMatch(/^M +openai +1 +1 /m);
    expect(r.stderr).not.toContain("sk-sampling-test");
  });

  test("server-everything's trigger-sampling-request (offered only to a client with the sampling capability) is answered too", async () => {
    fake.script([{ text: "pong" }]);
    const r = await run(
      undefined,
      `${MODEL}schema Said { text: string }
tool trigger(prompt: string, maxTokens?: int) -> Said { mcp: "everything"  mcp_tool: "trigger-sampling-request"  side_effects: "read" }
print(tool trigger({prompt: "ping"}).text)
`,
      [],
      {},
    ).then(async (without) => {
      // Without sampling configured the server does not even offer the tool.
      expect(without.stderr).toContain("MCP server 'everything' has no tool 'trigger-sampling-request'");
      const p = project(
        { mcp_servers: { everything: { ...stdioServers().everything, sampling: { model: "M", approval: "allow" } } } },
        `${MODEL}schema Said { text: string }
tool trigger(prompt: string, maxTokens?: int) -> Said { mcp: "everything"  mcp_tool: "trigger-sampling-request"  side_effects: "read" }
print(tool trigger({prompt: "ping"}).text)
`,
      );
      return runLumaAsync([p.file], { cwd: p.dir, env: { OPENAI_API_KEY: "k", LUMA_BASE_URL_M: fake.baseUrl("openai") } });
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('"text": "pong"');
    expect(r.stdout).toContain('"model": "M"');
    expect(fake.requests[0]!.body.messages.at(-1).content).toBe("Resource trigger-sampling-request context: ping");
  });

  test("a server without sampling configured is refused with the protocol's method-not-found error; no model is asked", async () => {
    fake.script([]);
    const r = await run(undefined, MODEL + SAMPLE);
    expect(r.stdout).toMatch(/^refused: -32601 .*Method not found/);
    expect(fake.requests).toHaveLength(0);
  });

  test('approval "ask" (the default) without a terminal: refused (-1, naming LUMA_APPROVED_TOOLS); the entry sampling:<server> approves', async () => {
    fake.script([]);
    const refused = await run({ model: "M" }, MODEL + SAMPLE);
    expect(refused.stdout).toBe(
      "refused: -1 MCP error -1: Luma refused the sampling request of MCP server 'local': it needs approval: 'sampling:local' is not listed in LUMA_APPROVED_TOOLS and no interactive terminal can approve it.\n",
    );
    expect(fake.requests).toHaveLength(0);
    fake.script([{ text: "approved answer" }]);
    const approved = await run({ model: "M" }, MODEL + SAMPLE, [], { LUMA_APPROVED_TOOLS: "sampling:local" });
    expect(approved.stdout).toBe("M: approved answer\n");
  });

  test.skipIf(!hasScript())('approval "ask" on a terminal: the person sees the server, the model and the last message; y answers, n refuses', async () => {
    const p = project({ mcp_servers: { local: { ...stdioServers().local, sampling: { model: "M" } } } }, MODEL + SAMPLE);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", TERM: "dumb", OPENAI_API_KEY: "k", LUMA_BASE_URL_M: fake.baseUrl("openai") };
    fake.script([{ text: "asked and answered" }]);
    const yes = startOnPty([ensureBinary(), p.file], { cwd: p.dir, env });
    const shown = await yes.waitFor("[y/N]");
    expect(shown).toContain(`Tool 'sampling:local' is called with model M: "Summarize: MCP lets servers ask the client's model."`);
    yes.type("y");
    const done = await yes.finish();
    expect(done.output).toContain("M: asked and answered\n");
    expect(done.exitCode).toBe(0);
    fake.script([]);
    const no = startOnPty([ensureBinary(), p.file], { cwd: p.dir, env });
    await no.waitFor("[y/N]");
    no.type("n");
    expect((await no.finish()).output).toContain("refused: -1 MCP error -1: Luma refused the sampling request of MCP server 'local': the person declined it.");
    expect(fake.requests).toHaveLength(0);
  });

  test("a sampling model the program does not declare is a start-up error (E0830); a bad approval value is a config error", async () => {
    const r = await run({ model: "Gpt", approval: "allow" }, MODEL + SAMPLE);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("E0830");
    expect(r.stderr).toContain("mcp_servers.local.sampling names model 'Gpt', which the program does not declare (declared models: M).");
    const bad = await run({ model: "M", approval: "maybe" }, MODEL + SAMPLE);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain("mcp_servers.local.sampling.approval");
    expect(bad.stderr).not.toContain("    at ");
  });
});

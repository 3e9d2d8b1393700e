/**
 * Issue #29 §2: an MCP server's question (`elicitation/create`) inside one of a durable run's
 * tool calls, with nobody at the terminal, through `dist/luma` and the fixture server's
 * `confirm` tool (it asks a yes/no form and returns the answer). The question waits in the
 * journal (exit 75, listed by `luma runs` as an answer, bound to the run, the step and the
 * question's digest); `luma runs answer` refuses a value the server's form does not take,
 * naming the field; on resume the call is made again and the server's same question is
 * answered from the journal. A sampling request that needs approval (`sampling.approval:
 * "ask"`) waits the same way, for `luma approve` / `luma deny`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { join } from "node:path";
import { JournalProject } from "../journal/journal-project";

const SERVER = { local: { command: "bun", args: [join(import.meta.dir, "fixtures/stdio-server.ts")] } };

const FLOW = `
schema Said { text: string }
tool confirm(question: string) -> Said { mcp: "local"  side_effects: "read" }
print("before")
print(tool confirm({ question: "Ship it?" }).text)
`;

const J = ["--journal", "runs.sqlite"];

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const SAMPLE_FLOW = `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Said { text: string }
tool sample(prompt: string) -> Said { mcp: "local"  side_effects: "read" }
print("before")
print(tool sample({ prompt: "Summarize: servers may ask." }).text)
`;

const SAMPLING_SERVER = { local: { ...SERVER.local, sampling: { model: "M", approval: "ask" } } };

const listed = async (p: JournalProject) => JSON.parse((await p.run(["runs", ...J, "--format", "json"])).stdout);

describe("MCP client: a server's question waits in the journal (issue #29 §2)", () => {
  test("the question waits (exit 75) → luma runs lists it → a value the form refuses is refused naming the field → the answer is the server's on resume", async () => {
    const p = new JournalProject(FLOW, { mcp_servers: SERVER });
    const first = await p.runFlow("q1", J);
    expect(first.exitCode).toBe(75);
    expect(first.stdout).toBe("before\n");
    expect(first.stderr).toBe(
      "Error: Run q1 is waiting for an answer to MCP server 'local''s question during tool 'confirm' at step main/1#q1. Answer with: luma runs answer --run-id q1 --step main/1#q1 --json '{…}' (see luma runs for the question and its form), then run it again with --run-id q1.\n",
    );

    const pending = await listed(p);
    expect(pending.pending).toMatchObject([{ run: "q1", step: "main/1#q1", kind: "answer", tool: "confirm", schema: "form", args: "Ship it?" }]);
    // Waiting again without an answer: the same question, the same row.
    expect((await p.runFlow("q1", J)).exitCode).toBe(75);
    expect((await listed(p)).pending).toMatchObject([{ step: "main/1#q1", digest: pending.pending[0].digest }]);

    const wrong = await p.run(["runs", "answer", "--run-id", "q1", "--step", "main/1#q1", "--json", '{"ok": "yes"}', ...J]);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain("Refused: the --json value is not a valid form for the MCP server's question during tool 'confirm': form.ok must be boolean");
    expect(wrong.stderr).toContain("Nothing was recorded.");
    // The server's form takes no other fields.
    const extra = await p.run(["runs", "answer", "--run-id", "q1", "--json", '{"ok": true, "why": "x"}', ...J]);
    expect(extra.exitCode).toBe(1);
    expect(extra.stderr).toContain("form.why is not a field of this schema.");
    const missing = await p.run(["runs", "answer", "--run-id", "q1", "--json", "{}", ...J]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("form.ok is required");

    const ok = await p.run(["runs", "answer", "--run-id", "q1", "--json", '{"ok": true}', ...J]);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain("answered: run q1 step main/1#q1 (MCP server's question during tool 'confirm', question digest ");
    expect((await listed(p)).pending).toEqual([]);

    const resumed = await p.runFlow("q1", J);
    expect(resumed.stderr).toBe("");
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe('before\naccept {"ok":true}\n');
    // A later resume replays the finished step: the server is not asked again.
    expect((await p.runFlow("q1", J)).stdout).toBe('before\naccept {"ok":true}\n');
  }, 60_000);

  test("two questions in one call wait one after the other (#q1, #q2); the re-made call gets both answers, the form's defaults filled in", async () => {
    const p = new JournalProject(`
schema Said { text: string }
tool interview() -> Said { mcp: "local"  side_effects: "read" }
print(tool interview({}).text)
`, { mcp_servers: SERVER });
    expect((await p.runFlow("i1", J)).exitCode).toBe(75);
    expect((await listed(p)).pending).toMatchObject([{ step: "main/1#q1", args: "Go on?" }]);
    expect((await p.run(["runs", "answer", "--run-id", "i1", "--json", '{"ok": true}', ...J])).exitCode).toBe(0);

    const second = await p.runFlow("i1", J);
    expect(second.exitCode).toBe(75);
    expect(second.stderr).toContain("at step main/1#q2.");
    expect((await listed(p)).pending).toMatchObject([{ step: "main/1#q2", kind: "answer", args: "Who and which team?" }]);
    const badTeam = await p.run(["runs", "answer", "--run-id", "i1", "--json", '{"name": "Ada", "team": "c"}', ...J]);
    expect(badTeam.exitCode).toBe(1);
    expect(badTeam.stderr).toContain("form.team");
    expect((await p.run(["runs", "answer", "--run-id", "i1", "--json", '{"name": "Ada"}', ...J])).exitCode).toBe(0);

    const done = await p.runFlow("i1", J);
    expect(done.stderr).toBe("");
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toBe('accept {"ok":true}; accept {"name":"Ada","team":"a"}\n');
  }, 60_000);

  test("without a journal and without a terminal nobody can answer: the client announces no elicitation and the server's request is refused, as before", async () => {
    const p = new JournalProject(FLOW, { mcp_servers: SERVER });
    const r = await p.run(["flow.luma"]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("before\n");
    expect(r.stderr).toContain("MCP server 'local' refused tool 'confirm'");
    expect(r.stderr).toContain("Method not found");
  }, 60_000);

  test("a sampling request that needs approval waits (exit 75) for luma approve; approved, the model answers the server on resume; luma deny is the server's refusal", async () => {
    const env = { OPENAI_API_KEY: "sk-journal-sampling", LUMA_BASE_URL_M: fake.baseUrl("openai") };
    const p = new JournalProject(SAMPLE_FLOW, { mcp_servers: SAMPLING_SERVER });
    fake.script([]);
    const first = await p.runFlow("s1", J, env);
    expect(first.exitCode).toBe(75);
    expect(first.stdout).toBe("before\n");
    expect(first.stderr).toBe(
      "Error: Run s1 is waiting for approval of MCP server 'local''s sampling request during tool 'sample' at step main/1#s1. Approve with: luma approve --run-id s1 --step main/1#s1 (or luma deny …), then run it again with --run-id s1.\n",
    );
    expect(fake.requests).toHaveLength(0);
    expect((await listed(p)).pending).toMatchObject([{ run: "s1", step: "main/1#s1", kind: "approval", tool: "sample", args: 'sampling:local: model M: "Summarize: servers may ask."' }]);
    // An approval is not an answer.
    expect((await p.run(["runs", "answer", "--run-id", "s1", "--json", "{}", ...J])).stderr).toContain("Run s1 has no call waiting for an answer.");

    expect((await p.run(["approve", "--run-id", "s1", "--step", "main/1#s1", ...J])).exitCode).toBe(0);
    fake.script([{ text: "Servers can ask." }]);
    const resumed = await p.runFlow("s1", J, env);
    expect(resumed.stderr).toBe("");
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("before\nM: Servers can ask.\n");
    expect(fake.requests).toHaveLength(1);

    const q = new JournalProject(SAMPLE_FLOW, { mcp_servers: SAMPLING_SERVER });
    expect((await q.runFlow("s2", J, env)).exitCode).toBe(75);
    expect((await q.run(["deny", "--run-id", "s2", ...J])).exitCode).toBe(0);
    const denied = await q.runFlow("s2", J, env);
    expect(denied.exitCode).toBe(0);
    expect(denied.stdout).toBe("before\nrefused: -1 MCP error -1: Luma refused the sampling request of MCP server 'local': the person declined it.\n");
    expect(fake.requests).toHaveLength(1);
  }, 60_000);
});

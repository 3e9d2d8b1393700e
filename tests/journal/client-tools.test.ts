/**
 * Issue #25 §4: client tools (`handler: "client"`), through `dist/luma`. No host handler
 * runs: in a journaled run the call waits (exit 75, listed by `luma runs` as an answer),
 * `luma runs answer --json` records a value of the return schema — refused, naming the
 * field, with nothing recorded, when it does not fit — and the resumed run takes it as the
 * tool's result (output validation included), whether code or a model made the call.
 * Without a journal or a terminal the call fails with CLIENT_TOOL_UNANSWERED.
 */
import { describe, expect, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { JournalProject } from "./journal-project";

const DIRECT = `
schema Address { street: string  city: string }
schema Confirmed { ok: bool  zip: string  note?: string @default("none") }
tool confirm_address(address: Address) -> Confirmed { handler: "client" }
print("before")
c = tool confirm_address({ address: { street: "Main St 1", city: "Springfield" } })
print("confirmed", c.ok, c.zip, c.note)
`;

const J = ["--journal", "runs.sqlite"];

const pending = async (p: JournalProject) => JSON.parse((await p.run(["runs", ...J, "--format", "json"])).stdout);

describe("client tools in a journaled run (issue #25 §4)", () => {
  test("the call waits (exit 75) → luma runs lists an answer → an invalid answer is refused → a valid one is the result on resume", async () => {
    const p = new JournalProject(DIRECT);
    const first = await p.runFlow("c1", J);
    expect(first.exitCode).toBe(75);
    expect(first.stdout).toBe("before\n");
    expect(first.stderr).toBe(
      "Error: Run c1 is waiting for an answer to client tool 'confirm_address' at step main/1. Answer with: luma runs answer --run-id c1 --step main/1 --json '{…}' (a Confirmed), then run it again with --run-id c1.\n",
    );

    const listed = await pending(p);
    expect(listed.pending).toMatchObject([
      { run: "c1", step: "main/1", kind: "answer", tool: "confirm_address", schema: "Confirmed", args: { address: { street: "Main St 1", city: "Springfield" } } },
    ]);
    const table = await p.run(["runs", ...J]);
    expect(table.stdout).toContain("Waiting for an answer (luma runs answer):");
    expect(table.stdout).toMatch(/c1\s+main\/1\s+confirm_address\s+Confirmed\s/);

    // Invalid answers: refused, exit non-zero, naming the field; nothing recorded.
    const missing = await p.run(["runs", "answer", "--run-id", "c1", "--json", '{"ok": true}', ...J]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("Confirmed.zip is required");
    expect(missing.stderr).toContain("Nothing was recorded.");
    const wrongType = await p.run(["runs", "answer", "--run-id", "c1", "--json", '{"ok": "yes", "zip": "1"}', ...J]);
    expect(wrongType.exitCode).toBe(1);
    expect(wrongType.stderr).toContain("Confirmed.ok must be boolean");
    const notJson = await p.run(["runs", "answer", "--run-id", "c1", "--json", "{ok", ...J]);
    expect(notJson.exitCode).toBe(1);
    expect(notJson.stderr).toContain("--json is not JSON");
    // luma approve is for approvals, not answers.
    expect((await p.run(["approve", "--run-id", "c1", ...J])).stderr).toContain("Run c1 has no call waiting for approval.");
    expect(await pending(p)).toEqual(listed);
    const still = await p.runFlow("c1", J);
    expect(still.exitCode).toBe(75);

    const ok = await p.run(["runs", "answer", "--run-id", "c1", "--step", "main/1", "--json", '{"ok": true, "zip": "12345"}', ...J]);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain("answered: run c1 step main/1 (client tool 'confirm_address'");
    expect((await pending(p)).pending).toEqual([]);

    const resumed = await p.runFlow("c1", J);
    expect(resumed.stderr).toBe("");
    expect(resumed.exitCode).toBe(0);
    // The answer went through output validation: the @default filled `note`.
    expect(resumed.stdout).toBe("before\nconfirmed true 12345 none\n");
    // A second resume replays the finished step.
    expect((await p.runFlow("c1", J)).stdout).toBe("before\nconfirmed true 12345 none\n");
    const shown = JSON.parse((await p.run(["runs", "show", "c1", ...J, "--format", "json"])).stdout);
    expect(shown.steps).toMatchObject([{ step: "main/1", kind: "tool", name: "confirm_address", outcome: "ok" }]);
  });

  test("luma runs answer needs --json; a run with nothing waiting says so", async () => {
    const p = new JournalProject(DIRECT);
    const noJson = await p.run(["runs", "answer", "--run-id", "c2", ...J]);
    expect(noJson.exitCode).toBe(64);
    expect(noJson.stderr).toContain("luma runs answer needs --json JSON");
    await p.runFlow("c2", J);
    await p.run(["runs", "answer", "--run-id", "c2", "--json", '{"ok": false, "zip": "1"}', ...J]);
    const again = await p.run(["runs", "answer", "--run-id", "c2", "--json", '{"ok": false, "zip": "1"}', ...J]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("Run c2 has no call waiting for an answer.");
  });

  test("a model's native call of a client tool waits the same way, and the answer is the tool result it gets on resume", async () => {
    const fake = await startFakeProvider();
    try {
      const p = new JournalProject(`
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Confirmed { ok: bool  zip: string }
schema Reply { text: string }
tool confirm_address(street: string) -> Confirmed { handler: "client"  description: "Asks the user to confirm an address." }
agent Shipping {
  model: M
  tools: [confirm_address]
  fn ship(street: string) -> Reply { ask "Ship to {street}" -> Reply }
}
print(Shipping.ship("Main St 1").text)
`);
      const env = { OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: fake.baseUrl("openai") };
      fake.script([{ toolCalls: [{ name: "confirm_address", args: { street: "Main St 1" } }] }]);
      const first = await p.runFlow("n1", J, env);
      expect(first.exitCode).toBe(75);
      expect(first.stderr).toContain("waiting for an answer to client tool 'confirm_address'");
      const step = (await pending(p)).pending[0].step;
      expect((await p.run(["runs", "answer", "--run-id", "n1", "--step", step, "--json", '{"ok": true, "zip": "54321"}', ...J])).exitCode).toBe(0);

      fake.script([{ json: { text: "shipping to 54321" } }]);
      const resumed = await p.runFlow("n1", J, env);
      expect(resumed.stderr).toBe("");
      expect(resumed.stdout).toBe("shipping to 54321\n");
      // The first model turn was replayed from the journal; the one request sent carries the answer as the tool's result.
      expect(fake.requests.length).toBe(1);
      const toolMessage = fake.requests[0].body.messages.find((m: { role: string }) => m.role === "tool");
      expect(JSON.parse(toolMessage.content)).toEqual({ ok: true, zip: "54321" });
    } finally {
      fake.stop();
    }
  });
});

describe("client tools without a journal, and their rules", () => {
  test("non-interactive, no journal: CLIENT_TOOL_UNANSWERED naming the tool (a value `catch` sees)", async () => {
    const p = new JournalProject(`
schema Confirmed { ok: bool }
tool confirm(text: string) -> Confirmed { handler: "client" }
try {
  tool confirm({ text: "x" })
} catch e {
  print(e.code, e.message)
}
`);
    const r = await p.run(["flow.luma"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      "CLIENT_TOOL_UNANSWERED Client tool 'confirm' needs an answer (a Confirmed) from the caller: no interactive terminal, MCP client or journal can answer it.\n",
    );
  });

  test("no host handler is needed at start-up, and luma check accepts it", async () => {
    const p = new JournalProject(`
schema Confirmed { ok: bool }
tool confirm(text: string) -> Confirmed { handler: "client" }
print("started")
`);
    expect((await p.run(["flow.luma"])).stdout).toBe("started\n");
    expect((await p.run(["check", "flow.luma"])).exitCode).toBe(0);
  });

  test("E0278: keys only a host handler uses are refused on a client tool", async () => {
    const p = new JournalProject(`
schema Confirmed { ok: bool }
tool confirm(text: string) -> Confirmed {
  handler: "client"
  retries: 2
  cache: true
}
`);
    const r = await p.run(["check", "flow.luma"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error[E0278]: Tool 'confirm' is answered by the client (handler: "client"), so it cannot also have 'retries'.`);
    expect(r.stderr).toContain(`so it cannot also have 'cache'.`);
  });

  test("E0657: a tool module exporting a handler for a client tool stops the program at start-up", async () => {
    const p = new JournalProject(`
schema Done { done: int }
tool effect(n: int) -> Done { handler: "client" }
print("never")
`);
    const r = await p.run(["flow.luma"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`Tool 'effect' is answered by the client (handler: "client"), but tool module`);
  });
});

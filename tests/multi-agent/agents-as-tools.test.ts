/**
 * Issue #27 §1 — agents as tools, through the real binary: `luma check` (E1101–E1103), and
 * runs against the fake provider on two provider families: the model is offered
 * `Refunds_handle` (the method's parameters as its input schema, its `///` doc comment as
 * its description); a call runs the method with its own model and tools and its validated
 * value is the tool result; invalid arguments go back to the model; `--usage` counts the
 * sub-agent's requests under its own agent; the nesting is bounded by `max_agent_depth`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma, runLumaAsync } from "../support/luma-binary";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";

const LIMIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "luma-agents-as-tools-"));
let n = 0;
function file(source: string): string {
  const path = join(dir, `p${++n}.luma`);
  writeFileSync(path, source);
  return path;
}
const TOOLS_MODULE = join(dir, "refund-tools.ts");
writeFileSync(
  TOOLS_MODULE,
  `export const lumaTools = {
  lookup_order: (i: { id: string }) => ({ id: i.id, status: "delivered" }),
  issue_refund: (i: { id: string }) => ({ id: i.id, refunded: 25 }),
};\n`,
);
const MODELS = {
  openai: `model M { provider: "openai"  name: "gpt-5.4-mini" }`,
  anthropic: `model M { provider: "anthropic"  name: "claude-sonnet-4-5" }`,
} as const;
const KEYS = { openai: { OPENAI_API_KEY: "sk-test" }, anthropic: { ANTHROPIC_API_KEY: "sk-ant-test" } } as const;
const DECLS = `
schema Order { id: string  status: string }
schema Refund { id: string  refunded: float }
schema RefundResult { ok: bool  note: string }
tool lookup_order(id: string) -> Order { side_effects: "none" }
tool issue_refund(id: string) -> Refund { side_effects: "none" }

agent Refunds {
  model: M
  system: "You issue refunds."
  tools: [issue_refund]
  /// Refunds one order and says what was done.
  /// Give the order id and the customer's reason.
  fn handle(order_id: string, reason: string) -> RefundResult {
    ask "Refund order {order_id}: {reason}" -> RefundResult
  }
}

agent Triage {
  model: M
  system: "You route customer requests."
  tools: [lookup_order, Refunds.handle]
  fn run(text: string) -> string { ask text -> string }
}
`;

const check = (source: string) => {
  const r = runLuma(["check", file(source)]);
  return { exitCode: r.exitCode, out: r.stdout + r.stderr };
};

describe("luma check: a method of another agent in tools", () => {
  test("the triage → refunds program checks clean", () => {
    const r = check(`${MODELS.openai}${DECLS}\nprint(Triage.run("hi"))\n`);
    expect(r.out).toContain(": ok");
    expect(r.exitCode).toBe(0);
  });

  test("not an agent (E1101), no such method (E1102), an agent with parameters (E1103)", () => {
    const r = check(`${MODELS.openai}${DECLS}
schema User { name: string }
agent Billing(user: User) { fn charge(id: string) -> string { id } }
agent Bad {
  tools: [lookup_order.run, Refunds.refund, Billing.charge]
}
`);
    expect(r.exitCode).toBe(2);
    expect(r.out).toContain("error[E1101]: 'lookup_order.run' in tools: 'lookup_order' is not an agent");
    expect(r.out).toContain("error[E1102]: Agent 'Refunds' has no method 'refund' to list in tools.");
    expect(r.out).toContain("error[E1103]: Agent 'Billing' takes parameters: list it in tools with its arguments, as Billing(…).charge.");
  });

  test("a method offered under a name longer than providers accept is E0248, as any tool name", () => {
    // `<Agent>_<method>` is the name the model is offered: 65 characters here, 64 for Fits.
    const long = "R".repeat(58);
    const fits = "F".repeat(57);
    const r = check(`${MODELS.openai}
schema User { name: string }
agent ${long} { model: M  fn handle(id: string) -> string { id } }
agent ${fits} { model: M  fn handle(id: string) -> string { id } }
agent Billing${"B".repeat(51)}(user: User) { model: M  fn charge(id: string) -> string { id } }
agent Front(user: User) {
  model: M
  tools: [${long}.handle, ${fits}.handle, Billing${"B".repeat(51)}(user).charge]
}
`);
    expect(r.exitCode).toBe(2);
    expect(r.out).toContain(`error[E0248]: Agent 'Front' offers tool '${long}_handle' to its model, but model providers accept tool names of at most 64 characters.`);
    expect(r.out).toContain(`error[E0248]: Agent 'Front' offers tool 'Billing${"B".repeat(51)}_charge' to its model`);
    expect(r.out).not.toContain(`'${fits}_handle'`);
    expect(r.out.match(/E0248/g)?.length).toBe(2);
  });

  test("an agent listing its own method (a cycle) is allowed: the run bounds it", () => {
    const r = check(`${MODELS.openai}\nagent Echo {\n  model: M\n  tools: [Echo.run]\n  fn run(text: string) -> string { ask text -> string }\n}\n`);
    expect(r.exitCode).toBe(0);
  });
});

/** The tool declarations of a request, as name → { description, parameters }. */
function toolsOf(family: "openai" | "anthropic", body: any): Record<string, { description?: string; parameters: any }> {
  const out: Record<string, { description?: string; parameters: any }> = {};
  for (const t of body.tools ?? []) {
    if (family === "openai") out[t.function.name] = { description: t.function.description, parameters: t.function.parameters };
    else out[t.name] = { description: t.description, parameters: t.input_schema };
  }
  return out;
}

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.stop());

for (const family of ["openai", "anthropic"] as const) {
  describe(`runs on ${family}`, () => {
    const program = (tail: string) => file(`${MODELS[family]}${DECLS}\n${tail}\n`);
    const env = () => ({ ...KEYS[family], LUMA_BASE_URL_M: fake.baseUrl(family) });

    test("the model calls Refunds_handle: the method runs with its own model and tools, its value is the tool result", async () => {
      fake.script([
        { toolCalls: [{ name: "Refunds_handle", args: { order_id: "A-7", reason: "arrived broken" } }] },
        { toolCalls: [{ name: "issue_refund", args: { id: "A-7" } }] },
        { json: { ok: true, note: "refunded 25 on A-7" } },
        { json: { value: "Your refund is on its way." } },
      ]);
      const r = await runLumaAsync([program(`print(Triage.run("My order A-7 arrived broken"))`), "--tool-module", TOOLS_MODULE, "--usage"], env());
      expect(r.stdout).toBe("Your refund is on its way.\n");
      expect(r.exitCode).toBe(0);
      const [outer1, inner1, inner2, outer2] = fake.requests.map((q) => q.body);
      const offered = toolsOf(family, outer1);
      expect(Object.keys(offered)).toEqual(["lookup_order", "Refunds_handle"]);
      expect(offered.Refunds_handle.description).toBe("Refunds one order and says what was done.\nGive the order id and the customer's reason.");
      expect(offered.Refunds_handle.parameters.required).toEqual(["order_id", "reason"]);
      // The sub-agent's own request: its system, its tools, the prompt of its method.
      expect(JSON.stringify(inner1)).toContain("You issue refunds.");
      expect(JSON.stringify(inner1)).toContain("Refund order A-7: arrived broken");
      expect(Object.keys(toolsOf(family, inner1))).toEqual(["issue_refund"]);
      expect(JSON.stringify(inner2)).toContain("refunded");
      // The outer model gets the method's validated value as the tool result.
      expect(JSON.stringify(outer2)).toContain("refunded 25 on A-7");
      // --usage: a row per agent, each counting its own requests.
      expect(r.stderr).toMatch(/\nagent Triage\s+1\s+2\s/);
      expect(r.stderr).toMatch(/\nagent Refunds\s+1\s+2\s/);
      expect(r.stderr).toMatch(/\ntotal\s+2\s+4\s/);
    }, LIMIT_MS);

    test("arguments that do not fit the method's parameters go back to the model, and the ask goes on", async () => {
      fake.script([
        { toolCalls: [{ name: "Refunds_handle", args: { order_id: "A-7" } }] },
        { json: { value: "Which reason?" } },
      ]);
      const r = await runLumaAsync([program(`print(Triage.run("refund A-7"))`), "--tool-module", TOOLS_MODULE], env());
      expect(r.stdout).toBe("Which reason?\n");
      expect(fake.requests.length).toBe(2);
      const second = JSON.stringify(fake.requests[1].body);
      expect(second).toContain("TOOL_INPUT_INVALID");
      expect(second).toContain("reason");
    }, LIMIT_MS);

    test("agents calling themselves stop at max_agent_depth with AGENT_DEPTH_EXCEEDED, catchable with try", async () => {
      writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ max_agent_depth: 3 }));
      const call = { toolCalls: [{ name: "Echo_run", args: { text: "again" } }] };
      fake.script([call, call, call]);
      const source = `${MODELS[family]}
agent Echo {
  model: M
  tools: [Echo.run]
  fn run(text: string) -> string { ask text -> string }
}
try { print(Echo.run("go")) } catch e { print("caught {e.code}: {e.message}") }
`;
      const r = await runLumaAsync([file(source), "--config", join(dir, "luma.config.json")], env());
      expect(fake.requests.length).toBe(3);
      expect(r.stdout).toContain("caught AGENT_DEPTH_EXCEEDED: Calling agent method 'Echo.run' as a tool would run at agent depth 4, deeper than max_agent_depth 3");
      expect(r.exitCode).toBe(0);
    }, LIMIT_MS);
  });
}

describe("an agent tool with a when condition", () => {
  test("Refunds.handle when user.can_refund is offered only while the condition holds", async () => {
    fake.script([{ json: { value: "no refunds for you" } }, { json: { value: "ok" } }]);
    const source = `${MODELS.openai}${DECLS.replace("agent Triage {", "agent Unused {")}
schema User { can_refund: bool }
agent Front(user: User) {
  model: M
  tools: [lookup_order, Refunds.handle when user.can_refund]
  fn run(text: string) -> string { ask text -> string }
}
print(Front({ can_refund: false }).run("refund A-7"))
print(Front({ can_refund: true }).run("refund A-7"))
`;
    const r = await runLumaAsync([file(source), "--tool-module", TOOLS_MODULE], { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("no refunds for you\nok\n");
    const [no, yes] = fake.requests.map((q) => Object.keys(toolsOf("openai", q.body)));
    expect(no).toEqual(["lookup_order"]);
    expect(yes).toEqual(["lookup_order", "Refunds_handle"]);
  }, LIMIT_MS);
});

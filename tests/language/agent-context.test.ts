/**
 * Issue #25 §1 and the `when` of §2 — agents with parameters, through the real binary:
 * `luma check` (E0262–E0269, argument types), runs against the fake provider on two
 * provider families (the system prompt carries the parameters; a tool whose `when` is false
 * is absent from the request body; a native call of it gets a "not available" result and the
 * ask goes on; a direct call fails with TOOL_NOT_ACTIVE), argument validation at the call,
 * `luma fmt`, and `luma mcp --agent-args`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma, runLumaAsync } from "../support/luma-binary";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { connectLuma, textJson } from "../mcp/mcp-harness";

const LIMIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "luma-agent-context-"));
let n = 0;
function file(source: string): string {
  const path = join(dir, `p${++n}.luma`);
  writeFileSync(path, source);
  return path;
}
const check = (source: string) => {
  const r = runLuma(["check", file(source)]);
  return { exitCode: r.exitCode, stdout: r.stdout + r.stderr };
};

const TOOLS_MODULE = join(dir, "support-tools.ts");
writeFileSync(
  TOOLS_MODULE,
  `export const lumaTools = {
  lookup_order: (i: { id: number }) => ({ id: i.id, status: "shipped" }),
  issue_refund: (i: { id: number }) => ({ id: i.id, refunded: 10 }),
  refund_order: (i: { id: number }) => ({ id: i.id, refunded: 10 }),
  search_docs: (i: { query: string }) => ({ id: 0, status: i.query }),
};\n`,
);

const DECLS = `
schema User { name: string  plan: enum["free", "pro"]  can_refund: bool }
schema Order { id: int  status: string }
schema Refund { id: int  refunded: float }
tool lookup_order(id: int) -> Order { side_effects: "none" }
tool issue_refund(id: int) -> Refund { side_effects: "none" }
tool search_docs(query: string) -> Order { side_effects: "none" }
`;

const MODELS = {
  openai: `model M { provider: "openai"  name: "gpt-5.4-mini" }`,
  anthropic: `model M { provider: "anthropic"  name: "claude-sonnet-4-5" }`,
} as const;
const KEYS = { openai: { OPENAI_API_KEY: "sk-test" }, anthropic: { ANTHROPIC_API_KEY: "sk-ant-test" } } as const;

const SUPPORT = `
agent Support(user: User) {
  model: M
  system: "You help {user.name}, who is on the {user.plan} plan. Reply as \\{ text }."
  tools: [lookup_order, issue_refund when user.can_refund, search_docs]
  fn reply(text: string) -> string { ask text -> string }
  fn refund(id: int) -> Refund { tool issue_refund({ id: id }) }
}
`;

describe("luma check: agents with parameters", () => {
  test("the issue's program checks clean", () => {
    const r = check(`${MODELS.openai}${DECLS}${SUPPORT}\nu: User = { name: "Ada", plan: "pro", can_refund: true }\nprint(Support(u).reply("Where is order 7?"))\n`);
    expect(r.stdout).toContain(": ok");
    expect(r.exitCode).toBe(0);
  });

  test("the wrong call form is an error with the fix, both ways (E0262, E0263), and Name(args) is not a value (E0264)", () => {
    const r = check(`${MODELS.openai}${DECLS}${SUPPORT}
agent Plain { fn go() -> string { "x" } }
print(Support.reply("hi"))
print(Plain("x").go())
s = Support({ name: "Ada", plan: "pro", can_refund: true })
`);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain("error[E0262]: Agent 'Support' takes parameters (user): call it as Support(…).reply(…).");
    expect(r.stdout).toContain("error[E0263]: Agent 'Plain' takes no parameters: call it as Plain.go(…).");
    expect(r.stdout).toContain("error[E0264]: 'Support(…)' is not a value");
  });

  test("arguments are counted and typed as a fn's", () => {
    const r = check(`${MODELS.openai}${DECLS}${SUPPORT}\nprint(Support("Ada").reply("hi"))\nprint(Support().reply("hi"))\n`);
    expect(r.stdout).toContain("error[E0306]: Argument 1 ('user') of agent 'Support' must be 'User', not 'string'.");
    expect(r.stdout).toContain("error[E0242]: Agent 'Support' expects 1 argument, got 0.");
  });

  test("parameters are in scope in methods and read-only (E0265)", () => {
    const r = check(`${DECLS}
agent A(user: User) {
  fn hello() -> string { "hi {user.name}" }
  fn rename() { user = { name: "B", plan: "free", can_refund: false } }
  fn touch() { user.name = "B" }
  fn shadow(user: string) -> string { user }
}
`);
    expect(r.exitCode).toBe(2);
    const lines = r.stdout.split("\n").filter((l) => l.includes("error["));
    expect(lines.length).toBe(3);
    for (const l of lines) expect(l).toContain("error[E0265]: 'user' is a parameter of agent 'A' and is read-only.");
  });

  test("system interpolates parameters only (E0266), in every agent, with the \\{ hint", () => {
    const r = check(`${DECLS}
agent A(user: User) { system: "Hi {user.nme} and {other} and {user.name}" }
agent Old { system: "Reply as { text: string }" }
`);
    expect(r.stdout).toContain("error[E0266]: The system prompt of agent 'A' interpolates '{user.nme}', which is not a parameter of the agent.");
    expect(r.stdout).toContain("error[E0266]: The system prompt of agent 'A' interpolates '{other}'");
    expect(r.stdout).not.toContain("'{user.name}'");
    expect(r.stdout).toContain("error[E0266]: The system prompt of agent 'Old' interpolates '{text: string}'");
    expect(r.stdout).toContain("hint: write \\{ for a literal brace");
    expect(check(`agent Old { system: "Reply as \\{ text: string }" }\n`).exitCode).toBe(0);
  });

  test("a when condition is a bool over the parameters (E0267, E0268), only in an agent's tools (E0269)", () => {
    const r = check(`${DECLS}
fn admin() -> bool { true }
agent A(user: User) {
  tools: [lookup_order when user.name, issue_refund when admin(), search_docs when user.plan == "pro"]
  tool_contexts: [db when true]
}
`);
    expect(r.stdout).toContain("error[E0267]: The condition of tool 'lookup_order' must be a bool, not 'string'.");
    expect(r.stdout).toContain("error[E0268]: The condition of tool 'issue_refund' may only read the agent's parameters, not a function or method call.");
    expect(r.stdout).not.toContain("tool 'search_docs'");
    expect(r.stdout).toContain("error[E0269]: 'when' conditions are allowed only in an agent's 'tools', not in 'tool_contexts'.");
  });
});

const toolNames = (family: "openai" | "anthropic", body: any): string[] =>
  (body.tools ?? []).map((t: any) => (family === "openai" ? t.function.name : t.name));
const systemOf = (family: "openai" | "anthropic", body: any): string =>
  family === "openai" ? body.messages[0].content : typeof body.system === "string" ? body.system : body.system.map((b: any) => b.text).join("");

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.stop());

for (const family of ["openai", "anthropic"] as const) {
  describe(`runs on ${family}: the parameters reach the system prompt and decide the tools`, () => {
    const program = (tail: string) => file(`${MODELS[family]}${DECLS}${SUPPORT}\n${tail}\n`);
    const env = () => ({ ...KEYS[family], LUMA_BASE_URL_M: fake.baseUrl(family) });

    test("a user who may get refunds is offered issue_refund; one who may not is not", async () => {
      fake.script([{ json: { value: "Hi Ada" } }, { json: { value: "Hi Bob" } }]);
      const r = await runLumaAsync(
        [
          program(`ada: User = { name: "Ada", plan: "pro", can_refund: true }
bob: User = { name: "Bob", plan: "free", can_refund: false }
print(Support(ada).reply("one"))
print(Support(bob).reply("two"))`),
          "--tool-module",
          TOOLS_MODULE,
        ],
        env(),
      );
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("Hi Ada\nHi Bob\n");
      const [ada, bob] = fake.requests.map((q) => q.body);
      expect(toolNames(family, ada)).toEqual(["lookup_order", "issue_refund", "search_docs"]);
      expect(toolNames(family, bob)).toEqual(["lookup_order", "search_docs"]);
      expect(systemOf(family, ada)).toBe("You help Ada, who is on the pro plan. Reply as { text }.");
      expect(systemOf(family, bob)).toBe("You help Bob, who is on the free plan. Reply as { text }.");
    }, LIMIT_MS);

    test("a native call of an unavailable tool gets a 'not available' result and the ask goes on", async () => {
      fake.script([{ toolCalls: [{ name: "issue_refund", args: { id: 7 } }] }, { json: { value: "Sorry, no refund" } }]);
      const r = await runLumaAsync(
        [program(`bob: User = { name: "Bob", plan: "free", can_refund: false }\nprint(Support(bob).reply("refund 7"))`), "--tool-module", TOOLS_MODULE],
        env(),
      );
      expect(r.stdout).toBe("Sorry, no refund\n");
      expect(r.exitCode).toBe(0);
      const second = JSON.stringify(fake.requests[1].body);
      expect(second).toContain("TOOL_NOT_ACTIVE");
      expect(second).toContain("is not available in this conversation");
      expect(second).not.toContain("refunded");
    }, LIMIT_MS);
  });
}

describe("when and lazy tools (issue #25 §2 with §3)", () => {
  test("a lazy tool whose when is false is never searchable: search_tools is not even offered", async () => {
    const path = file(`${MODELS.openai}${DECLS}
tool refund_order(id: int) -> Refund { lazy: true  description: "Refunds an order in full" }
agent Desk(user: User) {
  model: M
  tools: [lookup_order, refund_order when user.can_refund]
  fn reply(text: string) -> string { ask text -> string }
}
ada: User = { name: "Ada", plan: "pro", can_refund: true }
bob: User = { name: "Bob", plan: "free", can_refund: false }
print(Desk(ada).reply("one"))
print(Desk(bob).reply("two"))
`);
    fake.script([{ json: { value: "a" } }, { json: { value: "b" } }]);
    const r = await runLumaAsync([path, "--tool-module", TOOLS_MODULE], { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.stdout).toBe("a\nb\n");
    const [ada, bob] = fake.requests.map((q) => toolNames("openai", q.body));
    expect(ada).toEqual(["lookup_order", "search_tools"]);
    expect(bob).toEqual(["lookup_order"]);
  }, LIMIT_MS);
});

describe("direct calls and argument validation at run time", () => {
  const program = (tail: string) => file(`${MODELS.openai}${DECLS}${SUPPORT}\n${tail}\n`);

  test("a direct call of a tool whose when is false fails with TOOL_NOT_ACTIVE, naming tool, agent and condition (not retryable)", () => {
    const r = runLuma([
      program(`bob: User = { name: "Bob", plan: "free", can_refund: false }
try {
  Support(bob).refund(7)
} catch e {
  print("{e.code} {e.retryable}")
}
Support(bob).refund(7)`),
      "--tool-module",
      TOOLS_MODULE,
    ]);
    expect(r.stdout).toBe("TOOL_NOT_ACTIVE false\n");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[TOOL_NOT_ACTIVE] Tool 'issue_refund' is not active for agent 'Support': its condition 'user.can_refund' is false");
  });

  test("`ask … using tool t` of an unavailable tool fails with TOOL_NOT_ACTIVE before any request", () => {
    const path = file(`${MODELS.openai}${DECLS}
agent Forced(user: User) {
  model: M
  tools: [issue_refund when user.can_refund]
  fn go() -> string { ask "refund 7" -> string using tool issue_refund }
}
bob: User = { name: "Bob", plan: "free", can_refund: false }
print(Forced(bob).go())
`);
    const r = runLuma([path, "--tool-module", TOOLS_MODULE], { env: { OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: "http://127.0.0.1:9/v1" } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[TOOL_NOT_ACTIVE] Tool 'issue_refund' is not active for agent 'Forced': its condition 'user.can_refund' is false (using tool)");
  });

  test("the same call for a user who may get refunds runs the tool", () => {
    const r = runLuma([program(`ada: User = { name: "Ada", plan: "pro", can_refund: true }\nprint(Support(ada).refund(7).refunded)`), "--tool-module", TOOLS_MODULE]);
    expect(r.stdout).toBe("10\n");
  });

  test("an argument that does not fit is VALUE_INVALID naming the parameter and field", () => {
    const r = runLuma([program(`u = { name: "Ada", plan: args[0], can_refund: true }\nprint(Support(u).refund(1))`), "--tool-module", TOOLS_MODULE, "gold"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[VALUE_INVALID] Support.user.plan must be one of");
  });
});

describe("luma fmt", () => {
  test("prints the parameters and the when items, and is stable", () => {
    const path = file(`agent   A( u :int,  v: string ) { tools: [ x  when  u>1 , y ]\n system: "a {u}" }\n`);
    expect(runLuma(["fmt", path]).exitCode).toBe(0);
    const once = readFileSync(path, "utf8");
    expect(once).toBe(`agent A(u: int, v: string) {\n  tools: [x when u > 1, y]\n  system: "a {u}"\n}\n`);
    runLuma(["fmt", path]);
    expect(readFileSync(path, "utf8")).toBe(once);
  });
});

describe("luma mcp --agent-args", () => {
  const served = () => file(`${MODELS.openai}${DECLS}${SUPPORT}`);

  test("a missing, unknown or invalid value is a start-up error naming the field (exit 2)", () => {
    const path = served();
    const missing = runLuma(["mcp", path, "--agent", "Support", "--tool-module", TOOLS_MODULE]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("takes parameters (user)");
    expect(missing.stderr).toContain("E0654");
    const invalid = runLuma(["mcp", path, "--agent", "Support", "--agent-args", '{"user": {"name": "Ada", "plan": "gold", "can_refund": true}}', "--tool-module", TOOLS_MODULE]);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toContain("--agent-args: Support.user.plan must be one of");
    expect(invalid.stderr).toContain("E0655");
    const unknown = runLuma(["mcp", path, "--agent", "Support", "--agent-args", '{"usr": {}}', "--tool-module", TOOLS_MODULE]);
    expect(unknown.stderr).toContain("has no parameter 'usr'");
  });

  test("serves the agent with its parameters: its methods run with them, a tool whose when is false is not served", async () => {
    const args = JSON.stringify({ user: { name: "Bob", plan: "free", can_refund: false } });
    const session = await connectLuma([served(), "--agent", "Support", "--agent-args", args, "--tool-module", TOOLS_MODULE]);
    try {
      const { tools } = await session.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain("lookup_order");
      expect(names).not.toContain("issue_refund");
      const refused = await session.client.callTool({ name: "Support.refund", arguments: { id: 7 } });
      expect(refused.isError).toBe(true);
      expect(textJson(refused).code).toBe("TOOL_NOT_ACTIVE");
    } finally {
      await session.close();
    }
  }, LIMIT_MS);
});

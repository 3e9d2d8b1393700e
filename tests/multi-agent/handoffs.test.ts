/**
 * Issue #27 §2 — handoffs, through the real binary and the fake provider: `luma check`
 * (E1104–E1108); on every provider family the model of an agent with `handoffs: [Refunds]`
 * is offered `transfer_to_Refunds` (no arguments), and calling it makes Refunds continue the
 * same `ask` — the same messages, the transfer call and its result included, Refunds' own
 * system and tools (not a way back), the ask's target type; `--usage` counts each agent's
 * requests; `max_handoffs` bounds the transfers; a transfer across provider families sends
 * the earlier turns in the new family's shape; the trace has a `handoff` event.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma, runLumaAsync } from "../support/luma-binary";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { KEYS, type ProviderKind } from "../ask/ask-harness";

const LIMIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "luma-handoffs-"));
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
const MODEL_BODY = {
  openai: `provider: "openai"  name: "gpt-5.4-mini"`,
  "openai-responses": `provider: "openai"  name: "gpt-5.4-mini"  api: "responses"`,
  anthropic: `provider: "anthropic"  name: "claude-sonnet-4-5"`,
  gemini: `provider: "gemini"  name: "gemini-3-flash"`,
} as const;
type Kind = keyof typeof MODEL_BODY;
const FAMILY = { openai: "openai", "openai-responses": "responses", anthropic: "anthropic", gemini: "gemini" } as const;

const decls = (triageKeys = "", refundsKeys = "") => `
schema Order { id: string  status: string }
schema Refund { id: string  refunded: float }
schema Outcome { refunded: bool  note: string }
tool lookup_order(id: string) -> Order { side_effects: "none" }
tool issue_refund(id: string) -> Refund { side_effects: "none" }

agent Refunds {
  model: R
  system: "You issue refunds."
  tools: [issue_refund]
  ${refundsKeys}
}

agent Triage {
  model: M
  system: "You route customer requests."
  tools: [lookup_order]
  handoffs: [Refunds]
  ${triageKeys}
  fn run(text: string) -> Outcome { ask text -> Outcome }
}
`;
const program = (m: Kind, r: Kind, tail: string, triageKeys = "", refundsKeys = "") =>
  file(`model M { ${MODEL_BODY[m]} }\nmodel R { ${MODEL_BODY[r]} }\n${decls(triageKeys, refundsKeys)}\n${tail}\n`);

/** The tool names a request declares, in its family's wire shape. */
function toolNames(body: any): string[] {
  if (body.contents) return (body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((d: any) => d.name));
  return (body.tools ?? []).map((t: any) => t.function?.name ?? t.name);
}
/** The parameters schema of a declared tool, in any family's shape. */
function toolParams(body: any, name: string): any {
  if (body.contents) return body.tools.flatMap((t: any) => t.functionDeclarations ?? []).find((d: any) => d.name === name).parametersJsonSchema ?? {};
  const t = body.tools.find((t: any) => (t.function?.name ?? t.name) === name);
  return t.function?.parameters ?? t.input_schema ?? t.parameters;
}
const env = (fake: FakeProvider, m: Kind, r: Kind) => ({
  ...KEYS[m as ProviderKind],
  ...KEYS[r as ProviderKind],
  LUMA_BASE_URL_M: fake.baseUrl(m === "openai-responses" ? "openai-responses" : m),
  LUMA_BASE_URL_R: fake.baseUrl(r === "openai-responses" ? "openai-responses" : r),
});
const REFUND_SCRIPT = [
  { toolCalls: [{ name: "lookup_order", args: { id: "A-7" } }] },
  { toolCalls: [{ name: "transfer_to_Refunds", args: {} }] },
  { toolCalls: [{ name: "issue_refund", args: { id: "A-7" } }] },
  { json: { refunded: true, note: "refunded 25 on A-7" } },
];

const check = (source: string) => {
  const r = runLuma(["check", file(source)]);
  return { exitCode: r.exitCode, out: r.stdout + r.stderr };
};

describe("luma check: handoffs", () => {
  test("the triage → refunds program checks clean", () => {
    const r = check(`model M { ${MODEL_BODY.openai} }\nmodel R { ${MODEL_BODY.openai} }\n${decls()}\nprint(Triage.run("hi"))\n`);
    expect(r.out).toContain(": ok");
    expect(r.exitCode).toBe(0);
  });

  test("not an agent (E1104), itself (E1105), no model (E1106), parameters (E1107), a clashing tool name (E1108), twice (E0203)", () => {
    const r = check(`model M { ${MODEL_BODY.openai} }
schema User { name: string }
tool transfer_to_Helper(id: string) -> string { side_effects: "none" }
tool lookup(id: string) -> string { side_effects: "none" }
agent NoModel { system: "x" }
agent WithParams(user: User) { model: M }
agent Helper { model: M }
agent Front {
  model: M
  tools: [transfer_to_Helper]
  handoffs: [Refundz, lookup, Front, NoModel, WithParams, Helper, WithParams]
}
`);
    expect(r.exitCode).toBe(2);
    expect(r.out).toContain("error[E1104]: 'Refundz' in handoffs is not an agent (not declared).");
    expect(r.out).toContain("error[E1104]: 'lookup' in handoffs is not an agent (a tool).");
    expect(r.out).toContain("error[E1105]: Agent 'Front' lists itself in handoffs");
    expect(r.out).toContain("error[E1106]: Agent 'NoModel' in the handoffs of 'Front' has no model");
    expect(r.out).toContain("error[E1107]: Agent 'WithParams' takes parameters: it cannot be in the handoffs of 'Front'");
    expect(r.out).toContain("error[E1108]: Agent 'Front' lists a tool named 'transfer_to_Helper'");
    expect(r.out).toContain("error[E0203]: Duplicate agent 'WithParams' in handoffs.");
  });

  test("a transfer name longer than providers accept is E0248", () => {
    const long = "R".repeat(60);
    const r = check(`model M { ${MODEL_BODY.openai} }\nagent ${long} { model: M }\nagent A {\n  model: M\n  handoffs: [${long}]\n}\n`);
    expect(r.exitCode).toBe(2);
    expect(r.out).toContain(`error[E0248]: Agent 'A' offers tool 'transfer_to_${long}' to its model`);
  });

  test("max_handoffs is an integer >= 0", () => {
    const r = check(`model M { ${MODEL_BODY.openai} }\nagent A {\n  model: M\n  max_handoffs: -1\n}\n`);
    expect(r.exitCode).toBe(2);
    expect(r.out).toContain("max_handoffs");
  });
});

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.stop());

for (const kind of ["openai", "openai-responses", "anthropic", "gemini"] as const) {
  describe(`runs on ${kind}`, () => {
    test("transfer_to_Refunds: Refunds continues the same ask with its own system and tools, and answers its target type", async () => {
      fake.script(REFUND_SCRIPT);
      const trace = join(dir, `trace-${kind}.jsonl`);
      const r = await runLumaAsync(
        [program(kind, kind, `o = Triage.run("My order A-7 arrived broken")\nprint(o.refunded, o.note)`), "--tool-module", TOOLS_MODULE, "--usage", "--trace", trace],
        env(fake, kind, kind),
      );
      expect(r.stdout).toBe("true refunded 25 on A-7\n");
      expect(r.exitCode).toBe(0);
      expect(fake.requests.map((q) => q.family)).toEqual(Array(4).fill(FAMILY[kind]));
      const [t1, t2, r1, r2] = fake.requests.map((q) => q.body);
      // Triage is offered its tools and the transfer, which takes no arguments.
      expect(toolNames(t1)).toEqual(["lookup_order", "transfer_to_Refunds"]);
      expect(Object.keys(toolParams(t1, "transfer_to_Refunds").properties ?? {})).toEqual([]);
      expect(JSON.stringify(t1)).toContain("You route customer requests.");
      expect(JSON.stringify(t2)).toContain("delivered");
      // Refunds: its own system and tools, no transfer back; the same messages, the transfer included.
      expect(toolNames(r1)).toEqual(["issue_refund"]);
      const refunds1 = JSON.stringify(r1);
      expect(refunds1).toContain("You issue refunds.");
      expect(refunds1).not.toContain("You route customer requests.");
      for (const part of ["My order A-7 arrived broken", "lookup_order", "delivered", "transfer_to_Refunds", "transferred_to"]) expect(refunds1).toContain(part);
      expect(JSON.stringify(r2)).toContain("refunded");
      // --usage: the ask counts once (Triage's), each agent its own requests.
      expect(r.stderr).toMatch(/\nagent Triage\s+1\s+2\s/);
      expect(r.stderr).toMatch(/\nagent Refunds\s+0\s+2\s/);
      expect(r.stderr).toMatch(/\ntotal\s+1\s+4\s/);
      const events = readFileSync(trace, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(events.find((e) => e.event === "handoff")).toMatchObject({ event: "handoff", from: "Triage", to: "Refunds", handoffs: 1, max_handoffs: 3 });
      expect(events.find((e) => e.event === "ask")).toMatchObject({ agent: "Triage", turns: 4, handoffs: ["Refunds"], outcome: "ok" });
      // Each request is traced under the agent that made it (its `chat` span's gen_ai.agent.name).
      expect(events.filter((e) => e.event === "provider.request").map((e) => e.agent)).toEqual(["Triage", "Triage", "Refunds", "Refunds"]);
    }, LIMIT_MS);
  });
}

describe("across provider families", () => {
  for (const [m, r] of [["openai", "anthropic"], ["anthropic", "gemini"], ["gemini", "openai-responses"]] as const) {
    test(`Triage on ${m} hands over to Refunds on ${r}: the earlier turns go in ${r}'s shape`, async () => {
      fake.script(REFUND_SCRIPT);
      const out = await runLumaAsync([program(m, r, `print(Triage.run("refund A-7").note)`), "--tool-module", TOOLS_MODULE], env(fake, m, r));
      expect(out.stderr).toBe("");
      expect(out.stdout).toBe("refunded 25 on A-7\n");
      expect(fake.requests.map((q) => q.family)).toEqual([FAMILY[m], FAMILY[m], FAMILY[r], FAMILY[r]]);
      const handed = JSON.stringify(fake.requests[2].body);
      for (const part of ["refund A-7", "lookup_order", "transfer_to_Refunds", "You issue refunds."]) expect(handed).toContain(part);
    }, LIMIT_MS);
  }
});

describe("max_handoffs", () => {
  const back = (limit: string) => program("openai", "openai", `print(Triage.run("refund A-7").note)`, limit, "handoffs: [Triage]");

  test("once the ask made max_handoffs transfers, no transfer tool is offered (the limit is the starting agent's)", async () => {
    fake.script([{ toolCalls: [{ name: "transfer_to_Refunds", args: {} }] }, { json: { refunded: false, note: "stayed" } }]);
    const r = await runLumaAsync([back("max_handoffs: 1"), "--tool-module", TOOLS_MODULE], env(fake, "openai", "openai"));
    expect(r.stdout).toBe("stayed\n");
    expect(toolNames(fake.requests[0].body)).toEqual(["lookup_order", "transfer_to_Refunds"]);
    // Refunds lists Triage in its handoffs, but the one handoff Triage allows is spent.
    expect(toolNames(fake.requests[1].body)).toEqual(["issue_refund"]);
  }, LIMIT_MS);

  test("below the limit the target is offered its own handoffs; max_handoffs: 0 offers none", async () => {
    fake.script([{ toolCalls: [{ name: "transfer_to_Refunds", args: {} }] }, { json: { refunded: false, note: "ok" } }]);
    await runLumaAsync([back(""), "--tool-module", TOOLS_MODULE], env(fake, "openai", "openai"));
    expect(toolNames(fake.requests[1].body)).toEqual(["issue_refund", "transfer_to_Triage"]);
    fake.script([{ json: { refunded: false, note: "none" } }]);
    const r = await runLumaAsync([back("max_handoffs: 0"), "--tool-module", TOOLS_MODULE], env(fake, "openai", "openai"));
    expect(r.stdout).toBe("none\n");
    expect(toolNames(fake.requests[0].body)).toEqual(["lookup_order"]);
  }, LIMIT_MS);

  test("two transfers in one turn: the first is made, the second gets HANDOFF_NOT_MADE", async () => {
    const src = program("openai", "openai", `print(Triage.run("x").note)`);
    writeFileSync(src, readFileSync(src, "utf8").replace("handoffs: [Refunds]", "handoffs: [Refunds, Other]") + `agent Other {\n  model: M\n}\n`);
    fake.script([
      { toolCalls: [{ name: "transfer_to_Refunds", args: {} }, { name: "transfer_to_Other", args: {} }] },
      { json: { refunded: true, note: "refunds took it" } },
    ]);
    const r = await runLumaAsync([src, "--tool-module", TOOLS_MODULE], env(fake, "openai", "openai"));
    expect(r.stdout).toBe("refunds took it\n");
    const second = JSON.stringify(fake.requests[1].body);
    expect(second).toContain("You issue refunds.");
    expect(second).toContain("HANDOFF_NOT_MADE");
  }, LIMIT_MS);
});

describe("threads", () => {
  test("ask … in t: each stored message names the agent that produced it", async () => {
    const src = file(`model M { ${MODEL_BODY.openai} }\nmodel R { ${MODEL_BODY.openai} }\n${decls().replace("fn run(text: string) -> Outcome { ask text -> Outcome }", "fn run(t: Thread, text: string) -> Outcome { ask text -> Outcome in t }")}
t = thread()
print(Triage.run(t, "refund A-7").note)
for m in t.messages {
  print(m.role, m.agent)
}
`);
    fake.script(REFUND_SCRIPT);
    const r = await runLumaAsync([src, "--tool-module", TOOLS_MODULE], env(fake, "openai", "openai"));
    expect(r.stderr).toBe("");
    expect(r.stdout.trimEnd().split("\n")).toEqual([
      "refunded 25 on A-7",
      "user null",
      "assistant Triage",
      "tool Triage",
      "assistant Triage",
      "tool Triage",
      "assistant Refunds",
      "tool Refunds",
      "assistant Refunds",
    ]);
  }, LIMIT_MS);
});

/**
 * Issue #27 §1 — `Refunds(user).handle` in an agent's `tools`: a method of an agent with
 * parameters offered to the model, its agent's arguments written over the listing agent's
 * parameters. Through `dist/luma`: `luma check` judges the arguments as a call's (count,
 * types: E0242, E0306) and what they read (E1109), a bare listing is
 * still E1103, arguments to an agent without parameters E1110; at run time the arguments
 * are read for each call (two calls of Front with two users reach Refunds with each user:
 * its `system` filled in with them), and `luma fmt` prints the item as written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma, runLumaAsync } from "../support/luma-binary";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";

const LIMIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "luma-agent-tool-args-"));
let n = 0;
function file(source: string): string {
  const path = join(dir, `p${++n}.luma`);
  writeFileSync(path, source);
  return path;
}
const DECLS = `model M { provider: "openai"  name: "gpt-5.4-mini" }
schema User { name: string  tier: string }
schema Result { ok: bool  note: string }
agent Refunds(user: User) {
  model: M
  system: "You issue refunds for {user.name} ({user.tier})."
  /// Refunds one order.
  fn handle(order_id: string) -> Result { ask "Refund {order_id} for {user.name}" -> Result }
}
`;
const FRONT = `agent Front(user: User) {
  model: M
  tools: [Refunds(user).handle]
  fn run(text: string) -> string { ask text -> string }
}
`;

const check = (source: string) => {
  const r = runLuma(["check", file(source)]);
  return { exitCode: r.exitCode, out: r.stdout + r.stderr };
};

describe("luma check: Agent(args).method in tools", () => {
  test("arguments over the listing agent's parameters check clean", () => {
    const r = check(`${DECLS}${FRONT}print(Front({ name: "Ada", tier: "pro" }).run("hi"))\n`);
    expect(r.out).toContain(": ok");
    expect(r.exitCode).toBe(0);
  });

  test("a bare listing (E1103), the wrong count or type, a read of anything but the parameters (E1109), arguments to an agent without any (E1110)", () => {
    const r = check(`${DECLS}
agent Plain { fn go() -> string { "x" } }
fn pick(u: User) -> User { u }
agent Bad(user: User) {
  tools: [Refunds.handle, Refunds(user, user).handle, Refunds(user.name).handle, Refunds(pick(user)).handle, Plain(user).go]
}
`);
    expect(r.exitCode).toBe(2);
    expect(r.out).toContain("error[E1103]: Agent 'Refunds' takes parameters: list it in tools with its arguments, as Refunds(…).handle.");
    expect(r.out).toContain("error[E0242]: Agent 'Refunds' expects 1 argument, got 2.");
    expect(r.out).toMatch(/error\[E0306\]: Argument 1 \('user'\) of agent 'Refunds'/);
    expect(r.out).toContain("error[E1109]: The arguments of 'Refunds.handle' in tools may read only the agent's parameters, not a function or method call.");
    expect(r.out).toContain("error[E1110]: Agent 'Plain' takes no parameters: list it in tools as Plain.go.");
  });

  test("luma fmt prints the item as written", () => {
    const path = file(`${DECLS}agent Front(user: User) {\n  model: M\n  tools: [Refunds( user ).handle when user.tier == "pro"]\n}\n`);
    expect(runLuma(["fmt", path]).exitCode).toBe(0);
    expect(readFileSync(path, "utf8")).toContain(`  tools: [Refunds(user).handle when user.tier == "pro"]\n`);
  });
});

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.stop());

test("each call reads the listing agent's parameters: Refunds runs with the user of that Front call", async () => {
  const call = { toolCalls: [{ name: "Refunds_handle", args: { order_id: "A-7" } }] };
  fake.script([call, { json: { ok: true, note: "done for Ada" } }, { json: { value: "Ada: done" } }, call, { json: { ok: true, note: "done for Bob" } }, { json: { value: "Bob: done" } }]);
  const source = `${DECLS}${FRONT}print(Front({ name: "Ada", tier: "pro" }).run("refund A-7"))\nprint(Front({ name: "Bob", tier: "free" }).run("refund A-7"))\n`;
  const r = await runLumaAsync([file(source)], { OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: fake.baseUrl("openai") });
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("Ada: done\nBob: done\n");
  const bodies = fake.requests.map((q) => q.body);
  // The model sees only the method's parameters; the agent's come from Front's.
  expect(Object.keys(bodies[0].tools[0].function.parameters.properties)).toEqual(["order_id"]);
  expect(bodies[1].messages[0]).toEqual({ role: "system", content: "You issue refunds for Ada (pro)." });
  expect(JSON.stringify(bodies[1].messages)).toContain("Refund A-7 for Ada");
  expect(bodies[4].messages[0]).toEqual({ role: "system", content: "You issue refunds for Bob (free)." });
}, LIMIT_MS);

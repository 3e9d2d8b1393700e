/**
 * `luma chat` runs its agent with the host a `luma FILE` run has (programHostOf): `env(name)`
 * reads the process's environment, `max_agent_depth` of luma.config.json bounds agents called
 * as tools, and an agent method the chatting agent lists as a tool runs when its model calls it.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { luma, project } from "./thread-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
agent Refunds {
  /// Refunds one order.
  fn handle(id: int) -> string { return "refunded {id}" }
}
agent Support {
  model: M
  system: "You help with orders."
  tools: [Refunds.handle]
  fn greet(t: Thread, text: string) -> string {
    greeting = env("GREETING")
    return "{greeting}, {text}"
  }
}
`;
const env = () => ({ ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
const chat = (dir: string, extra: string[], stdin: string, more: Record<string, string> = {}) =>
  luma(dir, ["chat", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), ...extra], { ...env(), ...more }, stdin);

describe("luma chat runs with the host of a luma FILE run", () => {
  test("env(name) reads the environment of the luma process", async () => {
    const r = await chat(project(program), ["--agent", "Support", "--method", "greet"], "Ada\n", { GREETING: "Hello" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Hello, Ada\n");
  });

  test("another agent's method listed as a tool runs when the model calls it", async () => {
    fake.script([{ toolCalls: [{ name: "Refunds_handle", args: { id: 7 }, id: "call_1" }] }, { text: "Done." }]);
    const r = await chat(project(program), ["--agent", "Support"], "Refund order 7\n");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("Done.\n");
    expect(fake.requests[1].body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: JSON.stringify("refunded 7") });
  });

  test("max_agent_depth of luma.config.json bounds it: depth 2 is past a limit of 1", async () => {
    fake.script([{ toolCalls: [{ name: "Refunds_handle", args: { id: 7 }, id: "call_1" }] }, { text: "never" }]);
    const r = await chat(project(program, { max_agent_depth: 1 }), ["--agent", "Support"], "Refund order 7\n");
    expect(r.stderr).toContain("AGENT_DEPTH_EXCEEDED");
    expect(r.stderr).toContain("deeper than max_agent_depth 1");
  });
});

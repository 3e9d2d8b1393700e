/**
 * `POST /chat/{Agent}` of `luma serve` runs with the host of a `luma FILE` run
 * (programHostOf): another agent's method the chatting agent lists as a tool
 * (docs/language/multi-agent.md) runs when the model calls it, a write tool that needs
 * approval inside that method surfaces as the protocol's approval request (the chat's
 * approver reaches nested method calls), and `calls(tool)` counts the handler's runs.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { REFUNDS_AGENT } from "./chat-programs";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { chatClient, respond, textOf } from "./chat-client";
import { project, serve, type Served } from "./serve-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
schema Order { id: int  status: string }
schema Refund { id: int  refunded: bool }
tool lookup_order(id: int) -> Order {}
tool issue_refund(id: int) -> Refund { side_effects: "write" }
agent Orders {
  tools: [lookup_order]
  /// Looks an order up; says how many lookups ran so far.
  fn status(id: int) -> string {
    o = tool lookup_order({ id: id })
    n = calls("lookup_order")
    return "{o.status} after {n} lookups"
  }
}
${REFUNDS_AGENT}agent Support {
  model: M
  system: "You help with orders."
  tools: [Orders.status, Refunds.handle]
}
`;

let s: Served;
beforeAll(async () => {
  s = await serve(project(program), [], { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
});
afterAll(() => s.stop());

describe("luma serve: a chat's agent calls other agents' methods as tools", () => {
  test("the method runs when the model calls it, with calls() counting its tool's handler runs", async () => {
    fake.script([{ toolCalls: [{ name: "Orders_status", args: { id: 7 }, id: "call_s" }] }, { text: "It has shipped." }]);
    const chat = chatClient(s.url);
    const turn = await chat.send("Support", "agent-tool", [chat.user("Where is order 7?")]);
    expect(turn.errors).toEqual([]);
    const tool = turn.message.parts.find((p) => p.type === "tool-Orders_status") as any;
    expect([tool.state, tool.output]).toEqual(["output-available", "shipped after 1 lookups"]);
    expect(textOf(turn.message)).toBe("It has shipped.");
  });

  test("a write tool needing approval inside the method is the protocol's approval request; approved, it runs", async () => {
    fake.script([{ toolCalls: [{ name: "Refunds_handle", args: { id: 7 }, id: "call_h" }] }, { text: "Refunded." }]);
    const chat = chatClient(s.url);
    const ask = chat.user("Refund order 7");
    const first = await chat.send("Support", "nested-approval", [ask]);
    expect(first.errors).toEqual([]);
    // The client knows the outer model's call: the approval inside is asked as for it.
    const asked = first.message.parts.find((p) => p.type === "tool-Refunds_handle") as any;
    expect([asked.state, asked.toolCallId, asked.input, typeof asked.approval.id]).toEqual(["approval-requested", "call_h", { id: 7 }, "string"]);
    expect(fake.requests.length).toBe(1);

    const answered = respond(first.message, true);
    const second = await chat.send("Support", "nested-approval", [ask, answered], answered);
    expect(second.errors).toEqual([]);
    const handled = second.message.parts.find((p) => p.type === "tool-Refunds_handle") as any;
    expect([handled.state, handled.output]).toEqual(["output-available", true]);
    expect(textOf(second.message)).toBe("Refunded.");
  });

  test("refused, the outer call is output-denied and the refusal ends the turn (TOOL_PERMISSION_DENIED)", async () => {
    fake.script([{ toolCalls: [{ name: "Refunds_handle", args: { id: 8 }, id: "call_n" }] }, { text: "never" }]);
    const chat = chatClient(s.url);
    const ask = chat.user("Refund order 8");
    const first = await chat.send("Support", "nested-denied", [ask]);
    const answered = respond(first.message, false);
    const second = await chat.send("Support", "nested-denied", [ask, answered], answered);
    const denied = second.message.parts.find((p) => p.type === "tool-Refunds_handle") as any;
    expect(denied.state).toBe("output-denied");
    expect(second.errors.join("\n")).toContain("TOOL_PERMISSION_DENIED");
    expect(fake.requests.length).toBe(1);
  });
});

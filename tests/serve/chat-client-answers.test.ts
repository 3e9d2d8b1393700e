/**
 * Issue #26 §4, `POST /chat/{Agent}` when a call needs the client, driven by the AI SDK's own
 * client code: a tool call that needs approval surfaces as the protocol's
 * `tool-approval-request` (useChat's `approval-requested` part) and the stream finishes; the
 * client's answer (`addToolApprovalResponse`: the part `approval-responded`) sent back as the
 * chat continues the same turn — the tool runs, or is denied (`output-denied`). A client tool
 * (`handler: "client"`) surfaces as tool input; the client's output (`addToolOutput`) is the
 * call's result and the model goes on.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { KEYS } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { chatClient, respond, textOf, withOutput } from "./chat-client";
import { post, project, serve, type Served } from "./serve-harness";
import { SUPPORT_WITH_APPROVALS } from "./chat-programs";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = SUPPORT_WITH_APPROVALS;

let s: Served;
beforeAll(async () => {
  s = await serve(project(program), [], { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });
});
afterAll(() => s.stop());

describe("issue #26 §4: approvals in a chat", () => {
  test("the call surfaces as an approval request; approved, the same turn goes on: the tool runs and the model answers", async () => {
    fake.script([{ toolCalls: [{ name: "issue_refund", args: { id: 7 }, id: "call_r" }] }, { text: "Refunded order 7." }]);
    const chat = chatClient(s.url);
    const ask = chat.user("Refund order 7");
    const first = await chat.send("Support", "approve-yes", [ask]);
    const asked = first.message.parts.find((p) => p.type === "tool-issue_refund") as any;
    expect([asked.state, asked.toolCallId, asked.input, typeof asked.approval.id]).toEqual(["approval-requested", "call_r", { id: 7 }, "string"]);
    expect(fake.requests.length).toBe(1);

    const answered = respond(first.message, true);
    const second = await chat.send("Support", "approve-yes", [ask, answered], answered);
    expect(second.errors).toEqual([]);
    const ran = second.message.parts.find((p) => p.type === "tool-issue_refund") as any;
    expect([ran.state, ran.output]).toEqual(["output-available", { id: 7, refunded: true }]);
    expect(textOf(second.message)).toBe("Refunded order 7.");
    expect(fake.requests[1].body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_r" });
  });

  test("denied: the call is output-denied, the model is told (on_denied: tell_model) and answers", async () => {
    fake.script([{ toolCalls: [{ name: "issue_refund", args: { id: 8 }, id: "call_d" }] }, { text: "I could not refund it." }]);
    const chat = chatClient(s.url);
    const ask = chat.user("Refund order 8");
    const first = await chat.send("Support", "approve-no", [ask]);
    const answered = respond(first.message, false);
    const second = await chat.send("Support", "approve-no", [ask, answered], answered);
    const denied = second.message.parts.find((p) => p.type === "tool-issue_refund") as any;
    expect(denied.state).toBe("output-denied");
    expect(textOf(second.message)).toBe("I could not refund it.");
    expect(JSON.stringify(fake.requests[1].body.messages.at(-1))).toContain("TOOL_PERMISSION_DENIED");
  });

  test("answers nobody waits for (another server's turn, or a turn that ended) are refused with 400", async () => {
    const res = await post(`${s.url}/chat/Support`, {
      id: "nobody-waits",
      messages: [{ id: "a", role: "assistant", parts: [{ type: "tool-issue_refund", toolCallId: "x", state: "approval-responded", input: {}, approval: { id: "approval-x", approved: true } }] }],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain("Nothing in chat 'nobody-waits' waits");
  });
});

describe("issue #26 §4: client tools in a chat", () => {
  test("the call surfaces as tool input; the client's output is the result, and the model goes on with it", async () => {
    fake.script([{ toolCalls: [{ name: "confirm_address", args: { address: "1 Main St" }, id: "call_c" }] }, { text: "Thanks, confirmed." }]);
    const chat = chatClient(s.url);
    const ask = chat.user("Ship it to 1 Main St");
    const first = await chat.send("Support", "client-tool", [ask]);
    const call = first.message.parts.find((p) => p.type === "tool-confirm_address") as any;
    expect([call.state, call.input]).toEqual(["input-available", { address: "1 Main St" }]);

    const answered = withOutput(first.message, "call_c", { ok: true });
    const second = await chat.send("Support", "client-tool", [ask, answered], answered);
    expect(second.errors).toEqual([]);
    expect(textOf(second.message)).toBe("Thanks, confirmed.");
    expect(fake.requests[1].body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_c", content: JSON.stringify({ ok: true }) });
  });
});

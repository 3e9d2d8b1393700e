/**
 * `luma mcp FILE` over stdio, driven by the official SDK client (docs/mcp.md): tools/list
 * carries the contract (schemas, description, annotations), tools/call runs the full
 * pipeline under the served agent and answers with validated structuredContent or a typed
 * isError result, approval goes through elicitation, and cancellation aborts the handler.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connectLuma, SERVED, SERVED_TOOLS, tempDir, textJson, until, type StdioSession } from "./mcp-harness";

// Real servers start here (bun, the SDK, server-everything): a loaded machine needs more than 5 s.
setDefaultTimeout(30_000);

const served = (...extra: string[]) => [SERVED, "--tool-module", SERVED_TOOLS, ...extra];

describe("MCP server tools/list: the contract as MCP tools", () => {
  let s: StdioSession;
  beforeAll(async () => void (s = await connectLuma(served())));
  afterAll(() => s.close());

  test("every tool of the program and every agent method is listed, methods as Agent.method", async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["calculate", "save_note", "open_ticket", "lookup", "wait_for_abort", "ReadOnly.wait", "ReadOnly.summarize"]);
  });

  test("inputSchema is __tool_<name>_input, outputSchema the return schema, description from `description`", async () => {
    const { tools } = await s.client.listTools();
    const calc = tools.find((t) => t.name === "calculate")!;
    expect(calc.description).toBe("Adds or multiplies two numbers");
    expect(calc.inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        a: { type: "number", description: "first operand" },
        b: { type: "number" },
        operation: { type: "string", enum: ["add", "multiply"] },
      },
      required: ["a", "b", "operation"],
      additionalProperties: false,
    });
    expect(calc.outputSchema).toEqual({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { result: { type: "number" } }, required: ["result"], additionalProperties: false });
  });

  test("annotations: readOnlyHint for side_effects none/read, destructiveHint for write, idempotentHint for idempotent tools", async () => {
    const { tools } = await s.client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    // A module's handler may reach anything: open world (MCP's own default, said out loud).
    expect(hints.calculate).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: true });
    expect(hints.lookup).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: true });
    expect(hints.save_note).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(hints.open_ticket).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    // An agent method's are its tools' together: ReadOnly's tools include the write save_note.
    expect(hints["ReadOnly.summarize"]).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
  });

  test("an agent method: parameters (with annotations and defaults) → inputSchema, a non-object return is wrapped as { result }", async () => {
    const { tools } = await s.client.listTools();
    const m = tools.find((t) => t.name === "ReadOnly.summarize")!;
    expect(m.inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { text: { type: "string", minLength: 1, maxLength: 50 }, times: { type: "integer", default: 2 } },
      required: ["text"],
      additionalProperties: false,
    });
    expect(m.outputSchema!.properties).toEqual({ text: { type: "string" }, product: { type: "number" } });
  });

  test("--agent NAME lists only that agent's tools and methods", async () => {
    const r = await connectLuma(served("--agent", "ReadOnly"));
    try {
      expect((await r.client.listTools()).tools.map((t) => t.name)).toEqual(["calculate", "save_note", "lookup", "wait_for_abort", "ReadOnly.wait", "ReadOnly.summarize"]);
    } finally {
      await r.close();
    }
  });
});

describe("MCP server tools/call: the full pipeline, structuredContent or isError", () => {
  let s: StdioSession;
  const abortFile = join(tempDir(), "aborts.txt");
  beforeAll(async () => void (s = await connectLuma(served(), { env: { MCP_ABORT_FILE: abortFile } })));
  afterAll(() => s.close());

  test("success returns the validated value as structuredContent and as JSON text", async () => {
    const r = await s.client.callTool({ name: "calculate", arguments: { a: 2, b: 3, operation: "multiply" } });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toEqual({ result: 6 });
    expect(textJson(r)).toEqual({ result: 6 });
  });

  test("input is validated before the handler (TOOL_INPUT_INVALID as an isError result)", async () => {
    const r = await s.client.callTool({ name: "save_note", arguments: { text: "" } });
    expect(r.isError).toBe(true);
    expect(textJson(r)).toEqual({ code: "TOOL_INPUT_INVALID", message: "save_note.input.text must be at least 1 character long (@length).", retryable: false });
  });

  test("a typed error carries the Luma code and message, and details because the error schema allows them", async () => {
    const r = await s.client.callTool({ name: "open_ticket", arguments: { request_id: "r1", title: "broken" } });
    expect(r.isError).toBe(true);
    expect(textJson(r)).toEqual({ code: "TICKETS_DOWN", message: "The ticket system is down", retryable: true, details: { region: "eu" } });
  });

  test("details stay inside for a tool without an error schema", async () => {
    const r = await s.client.callTool({ name: "lookup", arguments: { key: "k" } });
    expect(textJson(r)).toEqual({ code: "LOOKUP_FAILED", message: "No entry k", retryable: false });
  });

  test("idempotency applies across MCP calls: the same request_id replays the first ticket", async () => {
    const first = await s.client.callTool({ name: "open_ticket", arguments: { request_id: "same", title: "a" } });
    const again = await s.client.callTool({ name: "open_ticket", arguments: { request_id: "same", title: "a" } });
    expect(again.structuredContent).toEqual(first.structuredContent as object);
  });

  test("an agent method runs through the interpreter (its tool calls included); print goes to stderr, not the protocol", async () => {
    const r = await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "hello" } });
    expect(r.structuredContent).toEqual({ text: "hello!", product: 4 });
    expect(s.stderr()).toContain("summarize called");
  });

  test("an agent method's arguments are validated against its parameters", async () => {
    const r = await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "x", extra: 1 } });
    expect(r.isError).toBe(true);
    expect(textJson(r).code).toBe("TOOL_INPUT_INVALID");
  });

  test("an unknown tool name is invalid params (JSON-RPC −32602), as the protocol says", async () => {
    const e = await s.client.callTool({ name: "nope", arguments: {} }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(McpError);
    expect({ code: (e as McpError).code, message: (e as McpError).message }).toEqual({
      code: -32602,
      message: "MCP error -32602: Unknown tool: 'nope' is not served by this program.",
    });
  });

  const cancelDuring = async (session: StdioSession, name: string, file: string) => {
    const controller = new AbortController();
    const call = session.client.callTool({ name, arguments: { ms: 30000 } }, undefined, { signal: controller.signal });
    await until(() => existsSync(file));
    controller.abort("user gave up");
    await expect(call).rejects.toThrow();
    await until(() => readFileSync(file, "utf8").includes("aborted"));
    expect(readFileSync(file, "utf8")).toBe("started\naborted\n");
  };

  test("cancellation from the client (notifications/cancelled) aborts the handler's AbortSignal", async () => {
    await cancelDuring(s, "wait_for_abort", abortFile);
    // The server still answers after a cancelled call.
    expect((await s.client.callTool({ name: "calculate", arguments: { a: 1, b: 1, operation: "add" } })).structuredContent).toEqual({ result: 2 });
  });

  test("cancelling an agent method aborts the signal of the tool it is waiting on", async () => {
    const file = join(tempDir(), "method-aborts.txt");
    const m = await connectLuma(served(), { env: { MCP_ABORT_FILE: file } });
    try {
      await cancelDuring(m, "ReadOnly.wait", file);
    } finally {
      await m.close();
    }
  });
});

describe("MCP server trace: --trace records every served call", () => {
  test("a tools/call through luma mcp writes its tool.call event, as a run would", async () => {
    const trace = join(tempDir(), "trace.jsonl");
    const t = await connectLuma(served("--trace", trace));
    await t.client.callTool({ name: "calculate", arguments: { a: 1, b: 2, operation: "add" } });
    await t.close();
    await until(() => existsSync(trace) && readFileSync(trace, "utf8").includes("calculate"));
    const events = readFileSync(trace, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(events.some((e) => e.event === "tool.call" && e.tool === "calculate")).toBe(true);
  });
});

describe("MCP server policy: the served agent's settings apply", () => {
  test("deny_write: a write tool is refused with TOOL_PERMISSION_DENIED", async () => {
    const s = await connectLuma(served("--agent", "ReadOnly"));
    try {
      const r = await s.client.callTool({ name: "save_note", arguments: { text: "x" } });
      expect(textJson(r)).toEqual({
        code: "TOOL_PERMISSION_DENIED",
        message: "Tool 'save_note' writes, and agent 'ReadOnly' has tool_policy deny_write.",
        retryable: false,
      });
    } finally {
      await s.close();
    }
  });

  test("approval: a client without elicitation is denied, TOOL_PERMISSION_DENIED", async () => {
    const s = await connectLuma(served("--agent", "Guarded"));
    try {
      const r = await s.client.callTool({ name: "save_note", arguments: { text: "x" } });
      expect(textJson(r).code).toBe("TOOL_PERMISSION_DENIED");
      expect(textJson(r).message).toContain("does not support elicitation");
    } finally {
      await s.close();
    }
  });

  test("approval: a client with elicitation is asked; accepting runs the tool once", async () => {
    const asked: string[] = [];
    const s = await connectLuma(served("--agent", "Guarded"), {
      onElicit: (message) => {
        asked.push(message);
        return { action: "accept", content: { approve: true } };
      },
    });
    try {
      const r = await s.client.callTool({ name: "save_note", arguments: { text: "ok" } });
      expect(r.structuredContent).toEqual({ id: "n-2", text: "ok" });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("save_note");
      // A read tool of the same agent asks nothing.
      await s.client.callTool({ name: "calculate", arguments: { a: 1, b: 1, operation: "add" } });
      expect(asked).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  test("approval: declining (or accepting with approve: false) is 'was not approved'", async () => {
    const answers = [{ action: "decline" as const }, { action: "accept" as const, content: { approve: false } }];
    const s = await connectLuma(served("--agent", "Guarded"), { onElicit: () => answers.shift()! });
    try {
      for (let i = 0; i < 2; i++) {
        const r = await s.client.callTool({ name: "save_note", arguments: { text: "x" } });
        expect(textJson(r)).toEqual({ code: "TOOL_PERMISSION_DENIED", message: "Tool 'save_note' was not approved.", retryable: false });
      }
    } finally {
      await s.close();
    }
  });

  test("LUMA_APPROVED_TOOLS approves without asking, as for a run", async () => {
    const s = await connectLuma(served("--agent", "Guarded"), { env: { LUMA_APPROVED_TOOLS: "save_note" } });
    try {
      expect((await s.client.callTool({ name: "save_note", arguments: { text: "y" } })).structuredContent).toEqual({ id: "n-1", text: "y" });
    } finally {
      await s.close();
    }
  });
});

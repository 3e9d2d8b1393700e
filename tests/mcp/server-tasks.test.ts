/**
 * Tasks offered by `luma mcp` (docs/mcp.md "Tasks: methods called now, fetched later"),
 * driven by the official SDK client over stdio: agent methods list
 * `execution.taskSupport: "optional"`; a `tools/call` with `task` is answered at once with a
 * working task whose result `tasks/result` gives once the method ends; `tasks/cancel` aborts
 * the method's tool call; plain tools are not offered as tasks.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectLuma, SERVED, SERVED_TOOLS, tempDir, until, type StdioSession } from "./mcp-harness";

setDefaultTimeout(60_000);

const abortFile = join(tempDir(), "abort.log");
let s: StdioSession;
beforeAll(async () => {
  writeFileSync(abortFile, "");
  s = await connectLuma([SERVED, "--tool-module", SERVED_TOOLS], { env: { MCP_ABORT_FILE: abortFile } });
});
afterAll(() => s.close());

const lines = () => readFileSync(abortFile, "utf8").split("\n").filter(Boolean);

describe("luma mcp: agent methods as tasks (protocol 2025-11-25)", () => {
  test("methods say they may be called as tasks; tools do not; the server declares task-augmented tools/call", async () => {
    const { tools } = await s.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("ReadOnly.summarize")!.execution).toEqual({ taskSupport: "optional" });
    expect(byName.get("calculate")!.execution).toBeUndefined();
    expect(s.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  test("a call with task is answered at once with a working task; polling ends completed, and tasks/result is the plain call's answer", async () => {
    const plain = await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "hi" } });
    const created = await s.client.request(
      { method: "tools/call", params: { name: "ReadOnly.summarize", arguments: { text: "hi" }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    expect(["working", "completed"]).toContain(created.task.status);
    const id = created.task.taskId;
    let status = created.task.status;
    while (status === "working") {
      await Bun.sleep(50);
      status = (await s.client.experimental.tasks.getTask(id)).status;
    }
    expect(status).toBe("completed");
    const result = await s.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(result.structuredContent as unknown).toEqual(plain.structuredContent);
    expect(result.structuredContent).toEqual({ text: "hi!", product: 4 });
    expect((await s.client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(id);
  });

  test("the SDK client's task stream (call now, fetch later) ends with the result", async () => {
    const types: string[] = [];
    let result: unknown;
    for await (const m of s.client.experimental.tasks.callToolStream({ name: "ReadOnly.summarize", arguments: { text: "yo", times: 3 } }, undefined, { task: {} })) {
      types.push(m.type);
      if (m.type === "result") result = m.result;
    }
    expect(types[0]).toBe("taskCreated");
    expect(types.at(-1)).toBe("result");
    expect((result as { structuredContent: unknown }).structuredContent).toEqual({ text: "yo!", product: 9 });
  });

  test("tasks/cancel aborts the running method's tool call; the task stays cancelled", async () => {
    const created = await s.client.request({ method: "tools/call", params: { name: "ReadOnly.wait", arguments: { ms: 30_000 }, task: {} } }, CreateTaskResultSchema);
    await until(() => lines().includes("started"));
    await s.client.experimental.tasks.cancelTask(created.task.taskId);
    await until(() => lines().includes("aborted"));
    await Bun.sleep(50);
    expect((await s.client.experimental.tasks.getTask(created.task.taskId)).status).toBe("cancelled");
  });
});

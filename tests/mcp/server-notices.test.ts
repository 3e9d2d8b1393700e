/**
 * `luma mcp` beyond the conformance suite's fixed checks, through the real binary and the
 * SDK's real client: progress (a tool's pipeline steps, a method's tool calls), logging
 * (`print`, a handler's console lines, `logging/setLevel`), pagination with cursors, titles
 * and hints, queries as resources (docs/mcp.md "Serving").
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { LoggingMessageNotificationSchema, ProgressNotificationSchema, type LoggingMessageNotification, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync } from "node:fs";
import { connectHttp, connectLuma, FIXTURES, runLumaAsync, SERVED, SERVED_TOOLS, startLumaHttp, tempDir, type StdioSession } from "./mcp-harness";

setDefaultTimeout(60_000);

const CONFORMANCE = join(FIXTURES, "conformance");
const FIXTURE = [join(CONFORMANCE, "server.luma"), "--tool-module", join(CONFORMANCE, "tools.ts")];

const logsOf = (s: StdioSession) => {
  const logs: LoggingMessageNotification["params"][] = [];
  s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  return logs;
};

/**
 * Every progress notification the client receives, whenever it is handled. (The SDK client
 * handles a notification a microtask later than an answer read in the same chunk, and drops
 * progress that comes after its answer: this handler sees the wire as it is.)
 */
const progressOf = (s: StdioSession) => {
  const seen: Progress[] = [];
  s.client.setNotificationHandler(ProgressNotificationSchema, (n) => void seen.push(n.params));
  return seen;
};
/** Asks for progress: the SDK sends a token only with an `onprogress`. */
const WITH_TOKEN = { onprogress: () => undefined };

describe("progress: a request with a progress token hears of each step", () => {
  let s: StdioSession;
  let seen: Progress[];
  beforeAll(async () => {
    s = await connectLuma([SERVED, "--tool-module", SERVED_TOOLS]);
    seen = progressOf(s);
  });
  afterAll(() => s.close());
  const settled = () => Bun.sleep(50);

  test("a tool's pipeline steps, in order, counted up to the plan's total", async () => {
    seen.length = 0;
    await s.client.callTool({ name: "calculate", arguments: { a: 1, b: 2, operation: "add" } }, undefined, WITH_TOKEN);
    await settled();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.every((p) => p.total === seen.length)).toBe(true);
    const steps = seen.map((p) => p.message);
    expect(steps).toContain("6 input validation");
    expect(steps).toContain("10 run handler");
    expect(steps.indexOf("6 input validation")).toBeLessThan(steps.indexOf("10 run handler"));
  });

  test("an agent method: the steps of every tool it calls, the count going up across them", async () => {
    seen.length = 0;
    const r = await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "hi" } }, undefined, WITH_TOKEN);
    await settled();
    expect(r.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.map((p) => p.message)).toContain("10 run handler");
  });

  test("without a token, no progress is sent", async () => {
    seen.length = 0;
    await s.client.callTool({ name: "calculate", arguments: { a: 1, b: 2, operation: "add" } });
    await settled();
    expect(seen).toEqual([]);
  });
});

describe("logging: what a call writes reaches its client as notifications/message", () => {
  let s: StdioSession;
  let logs: LoggingMessageNotification["params"][];
  beforeAll(async () => {
    s = await connectLuma([SERVED, "--tool-module", SERVED_TOOLS]);
    logs = logsOf(s);
  });
  afterAll(() => s.close());

  test("a method's print is an info message from logger 'print' (and still on stderr)", async () => {
    await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "hi" } });
    expect(logs).toContainEqual({ level: "info", logger: "print", data: "summarize called" });
    expect(s.stderr()).toContain("summarize called");
  });

  test("logging/setLevel warning: info lines are no longer sent", async () => {
    await s.client.setLoggingLevel("warning");
    logs.length = 0;
    await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "hi" } });
    expect(logs).toEqual([]);
    await s.client.setLoggingLevel("debug");
    await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "hi" } });
    expect(logs.map((l) => l.data)).toEqual(["summarize called"]);
  });

  test("a handler's console lines during a call are its client's", async () => {
    const f = await connectLuma(FIXTURE);
    try {
      const seen = logsOf(f);
      await f.client.callTool({ name: "test_tool_with_logging", arguments: {} });
      expect(seen.map((l) => [l.level, l.data])).toEqual([
        ["info", "Tool execution started"],
        ["info", "Tool processing data"],
        ["info", "Tool execution completed"],
      ]);
    } finally {
      await f.close();
    }
  });
});

describe("logging: a soft rule's warning, and two clients at once", () => {
  const program = () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "main.luma"),
      `schema Rating { text: string  score: int @range(0, 10) @severity("soft") }\ntool rate(text: string, score: int) -> Rating { side_effects: "none" }\n`,
    );
    writeFileSync(join(dir, "tools.ts"), `export const rate = async (i) => { console.log("rating " + i.text); await new Promise((r) => setTimeout(r, 30)); return { text: i.text, score: i.score }; };\n`);
    return [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")];
  };

  test("a soft rule's warning is a warning message of the call that broke it", async () => {
    const s = await connectLuma(program());
    try {
      const logs = logsOf(s);
      const r = await s.client.callTool({ name: "rate", arguments: { text: "great", score: 42 } });
      expect(r.structuredContent).toEqual({ text: "great", score: 42 });
      const warning = logs.find((l) => l.level === "warning");
      expect(warning?.logger).toBe("luma");
      expect(String(warning?.data)).toStartWith("warning:");
      expect(String(warning?.data)).toContain("score");
    } finally {
      await s.close();
    }
  });

  test("over HTTP, each client hears only the lines of its own calls, even when they run at once", async () => {
    const server = await startLumaHttp(program());
    const [a, b] = await Promise.all([connectHttp(server.url), connectHttp(server.url)]);
    try {
      const heard = { a: [] as unknown[], b: [] as unknown[] };
      a.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.a.push(n.params.data));
      b.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.b.push(n.params.data));
      await Promise.all([
        a.callTool({ name: "rate", arguments: { text: "from-a", score: 1 } }),
        b.callTool({ name: "rate", arguments: { text: "from-b", score: 2 } }),
      ]);
      expect(heard).toEqual({ a: ["rating from-a"], b: ["rating from-b"] });
    } finally {
      await Promise.all([a.close(), b.close()]);
      await server.stop();
    }
  });
});

describe("tools/list: pages, titles and hints", () => {
  test("LUMA_MCP_PAGE_SIZE=3: pages of 3 with a nextCursor, together the whole list; a bogus cursor is −32602", async () => {
    const whole = await connectLuma(FIXTURE);
    const paged = await connectLuma(FIXTURE, { env: { LUMA_MCP_PAGE_SIZE: "3" } });
    try {
      const all = (await whole.client.listTools()).tools.map((t) => t.name);
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await paged.client.listTools(cursor === undefined ? {} : { cursor });
        expect(page.tools.length).toBeLessThanOrEqual(3);
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(names).toEqual(all);
      expect(pages).toBe(Math.ceil(all.length / 3));
      const bogus = await paged.client.listTools({ cursor: "not-a-cursor" }).catch((e: Error) => e);
      expect(String(bogus)).toContain('MCP error -32602: Invalid cursor: "not-a-cursor" was not handed out by this server.');
    } finally {
      await Promise.all([whole.close(), paged.close()]);
    }
  });

  test("LUMA_MCP_PAGE_SIZE=0 does not start: exit 2, E0680", async () => {
    const r = await runLumaAsync(["mcp", ...FIXTURE], { env: { LUMA_MCP_PAGE_SIZE: "0" } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("E0680");
    expect(r.stderr).toContain("LUMA_MCP_PAGE_SIZE=\"0\": expected a whole number of list entries from 1 to 10000.");
  });

  test("title from the tool's `title`; openWorldHint false for a client tool and a SQLite query, true for a module's handler", async () => {
    const f = await connectLuma(FIXTURE);
    try {
      const tools = Object.fromEntries((await f.client.listTools()).tools.map((t) => [t.name, t]));
      expect(tools.test_simple_text.title).toBe("Simple text");
      expect(tools.test_elicitation.annotations?.openWorldHint).toBe(false);
      expect(tools.items.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      expect(tools.test_simple_text.annotations?.openWorldHint).toBe(true);
    } finally {
      await f.close();
    }
  });
});

describe("resources: the program's queries", () => {
  let s: StdioSession;
  beforeAll(async () => void (s = await connectLuma(FIXTURE)));
  afterAll(() => s.close());

  test("a parameterless query is a resource, a parameterized one a template", async () => {
    expect((await s.client.listResources()).resources).toEqual([
      { uri: "luma://query/items", name: "items", description: "Every item of the catalog (served as a resource)", mimeType: "application/json" },
    ]);
    expect((await s.client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "luma://query/item_data{?id}", name: "item_data", description: "One item's data (served as a resource template)", mimeType: "application/json" },
    ]);
  });

  test("reading runs the query through the pipeline: its JSON result is the contents", async () => {
    const r = await s.client.readResource({ uri: "luma://query/items" });
    expect(r.contents).toEqual([{ uri: "luma://query/items", mimeType: "application/json", text: JSON.stringify([{ id: "a1", name: "Anvil" }, { id: "b2", name: "Bolt" }]) }]);
    const one = await s.client.readResource({ uri: "luma://query/item_data?id=123" });
    expect(JSON.parse((one.contents[0] as { text: string }).text)).toEqual({ id: "123", templateTest: true, data: "Data for ID: 123" });
  });

  test("a parameter the query does not have is −32602; a query that is not served is −32002", async () => {
    expect(String(await s.client.readResource({ uri: "luma://query/item_data?nope=1" }).catch((e: Error) => e))).toContain(
      "MCP error -32602: Resource luma://query/item_data has no parameter 'nope' (parameters: id).",
    );
    expect(String(await s.client.readResource({ uri: "luma://query/nothing" }).catch((e: Error) => e))).toContain("MCP error -32002: Resource not found: luma://query/nothing");
  });

  test("arguments the contract refuses are −32602 with the validation message", async () => {
    const e = String(await s.client.readResource({ uri: "luma://query/item_data" }).catch((err: Error) => err));
    expect(e).toContain("MCP error -32602:");
    expect(e).toContain("TOOL_INPUT_INVALID");
  });
});

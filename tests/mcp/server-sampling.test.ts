/**
 * `model Host { provider: "mcp" }` under `luma mcp`: a served agent method thinks with the
 * calling client's model through `sampling/createMessage` — its tools offered in the request
 * where the client can take them, the structured answer's schema stated — with no API key.
 * A client without the sampling capability gets a typed error naming it; outside `luma mcp`
 * the model cannot answer (docs/mcp.md "Sampling as a model").
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema, ProgressNotificationSchema, type CreateMessageRequest } from "@modelcontextprotocol/sdk/types.js";
import { ensureBinary } from "../support/luma-binary";
import { runLumaAsync, tempDir, textJson } from "./mcp-harness";

setDefaultTimeout(60_000);

const PROGRAM = `
model Host {
  provider: "mcp"
  name: "host-choice"
}
schema Stock { sku: string  count: int }
schema Verdict { enough: bool  note: string }
tool stock(sku: string) -> Stock { side_effects: "read" }
agent Clerk {
  model: Host
  tools: [stock]
  fn check(sku: string) -> Verdict {
    ask "Is there enough of {sku}? Look it up." -> Verdict
  }
}
`;

const program = () => {
  const dir = tempDir();
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  writeFileSync(join(dir, "tools.ts"), `export const stock = (i) => ({ sku: i.sku, count: 7 });\n`);
  return { dir, args: [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")] };
};

type Params = CreateMessageRequest["params"];

async function client(args: string[], sampling: object | undefined, answer: (p: Params, n: number) => unknown) {
  const c = new Client({ name: "host-app", version: "1.0.0" }, { capabilities: sampling ? { sampling } : {} });
  let n = 0;
  if (sampling) c.setRequestHandler(CreateMessageRequestSchema, (req) => answer(req.params, n++) as never);
  // Only PATH and HOME: no provider key anywhere in the server's environment.
  await c.connect(new StdioClientTransport({ command: ensureBinary(), args: ["mcp", ...args], env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LUMA_NO_CACHE: "1" }, stderr: "ignore" }));
  return c;
}

describe('provider: "mcp" — sampling as a model', () => {
  test("the method's ask samples the client: tools offered, a tool_use runs through the pipeline, the structured answer is validated", async () => {
    const asked: Params[] = [];
    const c = await client(program().args, { tools: {} }, (p, n) => {
      asked.push(p);
      return n === 0
        ? { role: "assistant", model: "host-model", stopReason: "toolUse", content: [{ type: "tool_use", id: "u1", name: "stock", input: { sku: "A-1" } }] }
        : { role: "assistant", model: "host-model", stopReason: "endTurn", content: { type: "text", text: '{"enough": true, "note": "7 in stock"}' } };
    });
    try {
      const r = await c.callTool({ name: "Clerk.check", arguments: { sku: "A-1" } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ enough: true, note: "7 in stock" });
      expect(asked).toHaveLength(2);
      expect(asked[0].messages).toEqual([{ role: "user", content: { type: "text", text: "Is there enough of A-1? Look it up." } }]);
      expect(asked[0].tools?.map((t) => t.name)).toEqual(["stock"]);
      expect(asked[0].toolChoice).toEqual({ mode: "auto" });
      expect(asked[0].modelPreferences).toEqual({ hints: [{ name: "host-choice" }] });
      expect(asked[0].maxTokens).toBe(1024);
      // The answer's schema comes with the request that asks for the answer (after the tool ran).
      expect(asked[1].systemPrompt).toContain('of this JSON Schema (Verdict)');
      expect(asked[1].systemPrompt).toContain('"enough"');
      // The tool's result goes back as a tool_result for the tool_use it answers.
      const results = asked[1].messages.at(-1)!;
      expect(results.role).toBe("user");
      expect(results.content).toEqual([{ type: "tool_result", toolUseId: "u1", content: [{ type: "text", text: JSON.stringify({ sku: "A-1", count: 7 }) }] }]);
    } finally {
      await c.close();
    }
  });

  test("a client that samples without tools is asked without them", async () => {
    const asked: Params[] = [];
    const c = await client(program().args, {}, (p) => {
      asked.push(p);
      return { role: "assistant", model: "m", content: { type: "text", text: '{"enough": false, "note": "unknown"}' } };
    });
    try {
      const r = await c.callTool({ name: "Clerk.check", arguments: { sku: "B" } });
      expect(r.structuredContent).toEqual({ enough: false, note: "unknown" });
      expect(asked[0].tools).toBeUndefined();
      expect(asked[0].toolChoice).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  test("a client without the sampling capability: PROVIDER_ERROR naming the model and the client", async () => {
    const c = await client(program().args, undefined, () => undefined);
    try {
      const r = await c.callTool({ name: "Clerk.check", arguments: { sku: "B" } });
      expect(r.isError).toBe(true);
      expect(textJson(r).code).toBe("PROVIDER_ERROR");
      expect(textJson(r).message).toContain(`Model 'Host' (provider "mcp") cannot ask the MCP client 'host-app': it did not declare the sampling capability`);
    } finally {
      await c.close();
    }
  });

  test("outside luma mcp the model has no client to ask: PROVIDER_ERROR, no stack trace", async () => {
    const { dir } = program();
    writeFileSync(join(dir, "run.luma"), PROGRAM + "\nv = Clerk.check(\"A\")\n");
    const r = await runLumaAsync([join(dir, "run.luma"), "--tool-module", join(dir, "tools.ts")]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain(`Model 'Host' (provider "mcp") asks the MCP client that called the method (sampling/createMessage): it answers only in an agent method served by luma mcp, called by a client`);
    expect(r.stderr).not.toContain("    at ");
  });

  test("with a progress token, each ask turn and each pipeline step of its tool calls reports progress", async () => {
    const c = await client(program().args, { tools: {} }, (_p, n) =>
      n % 2 === 0
        ? { role: "assistant", model: "m", stopReason: "toolUse", content: [{ type: "tool_use", id: `u${n}`, name: "stock", input: { sku: "A" } }] }
        : { role: "assistant", model: "m", content: { type: "text", text: '{"enough": true, "note": "ok"}' } },
    );
    const seen: { progress: number; message?: string }[] = [];
    c.setNotificationHandler(ProgressNotificationSchema, (n) => void seen.push(n.params));
    try {
      await c.callTool({ name: "Clerk.check", arguments: { sku: "A" } }, undefined, { onprogress: () => undefined });
      await Bun.sleep(50);
      const messages = seen.map((p) => p.message);
      expect(messages[0]).toBe("Clerk: ask turn 1 (Host)");
      expect(messages).toContain("10 run handler");
      expect(messages.at(-1)).toBe("Clerk: ask turn 2 (Host)");
      expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
    } finally {
      await c.close();
    }
  });
});

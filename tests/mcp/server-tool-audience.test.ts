/**
 * `luma mcp` and issue #25's tool keys: a tool with `audience: "code"` is not served (it is
 * for the program's own code), a tool with `audience: "model"` is (an MCP client is a
 * model's host), and a tool's `metadata` is its `_meta` in tools/list.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectLuma, tempDir, type StdioSession } from "./mcp-harness";

setDefaultTimeout(30_000);

const dir = tempDir();
const PROGRAM = join(dir, "audience.luma");
const MODULE = join(dir, "audience-tools.ts");
writeFileSync(
  PROGRAM,
  `schema Note { text: string }
tool public_note(id: string) -> Note {
  description: "Reads a note."
  metadata: { owner: "notes-team", tier: 2, tags: ["read"], limits: { daily: 100 } }
}
tool internal_audit(id: string) -> Note { audience: "code" }
tool model_side(id: string) -> Note { audience: "model" }
agent Notes {
  tools: [public_note, internal_audit, model_side]
}
`,
);
writeFileSync(
  MODULE,
  `export const lumaTools = {
  public_note: ({ id }: { id: string }) => ({ text: "note " + id }),
  internal_audit: ({ id }: { id: string }) => ({ text: "audit " + id }),
  model_side: ({ id }: { id: string }) => ({ text: "model " + id }),
};
`,
);

for (const agent of [[], ["--agent", "Notes"]]) {
  describe(`luma mcp ${agent.join(" ") || "(whole program)"}: audience and metadata`, () => {
    let s: StdioSession;
    beforeAll(async () => void (s = await connectLuma([PROGRAM, "--tool-module", MODULE, ...agent])));
    afterAll(() => s.close());

    test('tools/list leaves out the "code" tool and keeps the "model" one', async () => {
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["public_note", "model_side"]);
    });

    test("a tool's metadata is its _meta; a tool without metadata has none", async () => {
      const { tools } = await s.client.listTools();
      expect(tools.find((t) => t.name === "public_note")!._meta).toEqual({ owner: "notes-team", tier: 2, tags: ["read"], limits: { daily: 100 } });
      expect(tools.find((t) => t.name === "model_side")!._meta).toBeUndefined();
    });

    test('tools/call runs the "model" tool and refuses the "code" one as not served', async () => {
      const ok = await s.client.callTool({ name: "model_side", arguments: { id: "1" } });
      expect(ok.isError).toBeFalsy();
      expect(ok.structuredContent).toEqual({ text: "model 1" });
      // As any name not served: invalid params (JSON-RPC −32602), not a result.
      const refused = await s.client.callTool({ name: "internal_audit", arguments: { id: "1" } }).catch((e: Error) => e);
      expect(String(refused)).toContain("MCP error -32602: Unknown tool: 'internal_audit' is not served by this program.");
    });
  });
}

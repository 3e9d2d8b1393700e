/**
 * Issue #25 §4 under `luma mcp`, driven by the official SDK client: a client tool's answer
 * and an approval's note are asked of the MCP client through elicitation (`elicitation/create`)
 * with the wanted schema — as its own flat form when the schema is one, else as one JSON text
 * field — and validated before they are taken. A client without the capability gets the
 * typed error. A served agent method whose code calls a client tool asks the same way.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { connectLuma, tempDir, textJson } from "./mcp-harness";

setDefaultTimeout(30_000);

const PROGRAM = `
schema Confirmed { ok: bool  zip: string  floor?: int }
schema Route { stops: string[] }
schema RefundNote { reason: string  ticket?: int }
schema Refunded { note: string }
tool confirm_address(street: string) -> Confirmed { handler: "client" }
tool plan_route(from: string) -> Route { handler: "client" }
tool issue_refund(order: string) -> Refunded { side_effects: "write"  approval: RefundNote }
agent Desk {
  tools: [confirm_address, issue_refund]
  fn ship(street: string) -> string {
    c = tool confirm_address({ street: street })
    return "zip " + c.zip
  }
}
`;

const project = () => {
  const dir = tempDir();
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  writeFileSync(join(dir, "tools.ts"), `export const lumaTools = { issue_refund: (i, _s, _n, ctx) => ({ note: i.order + ": " + ctx.approval.reason }) };\n`);
  return [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")];
};

describe("luma mcp: client tools and approval notes through elicitation (issue #25 §4)", () => {
  test("a client tool with a flat return schema is asked with that schema as the form; the accepted content is the result", async () => {
    const asked: { message: string; schema: any }[] = [];
    const s = await connectLuma(project(), {
      onElicit: (message, schema) => {
        asked.push({ message, schema });
        return { action: "accept", content: { ok: true, zip: "12345" } };
      },
    });
    try {
      const r = await s.client.callTool({ name: "confirm_address", arguments: { street: "Main St 1" } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ ok: true, zip: "12345" });
      expect(asked).toHaveLength(1);
      expect(asked[0].message).toContain("confirm_address");
      expect(asked[0].message).toContain('{"street":"Main St 1"}');
      expect(asked[0].schema).toEqual({
        type: "object",
        properties: { ok: { type: "boolean" }, zip: { type: "string" }, floor: { type: "integer" } },
        required: ["ok", "zip"],
      });
      // A served method whose code calls the client tool asks the same client.
      const m = await s.client.callTool({ name: "Desk.ship", arguments: { street: "Elm 2" } });
      expect(m.structuredContent).toEqual({ result: "zip 12345" });
      expect(asked).toHaveLength(2);
    } finally {
      await s.close();
    }
  });

  test("a richer return schema is asked as one JSON text field, parsed and validated; an invalid answer is refused naming the field", async () => {
    const answers = [{ json: '{"stops": ["A", "B"]}' }, { json: '{"stops": "A"}' }];
    const asked: any[] = [];
    const s = await connectLuma(project(), {
      onElicit: (_message, schema) => {
        asked.push(schema);
        return { action: "accept", content: answers.shift()! };
      },
    });
    try {
      const ok = await s.client.callTool({ name: "plan_route", arguments: { from: "depot" } });
      expect(ok.structuredContent).toEqual({ stops: ["A", "B"] });
      expect(asked[0].properties.json.type).toBe("string");
      expect(asked[0].required).toEqual(["json"]);
      expect(asked[0].properties.json.description).toContain('"stops"');
      const bad = await s.client.callTool({ name: "plan_route", arguments: { from: "depot" } });
      expect(textJson(bad).code).toBe("CLIENT_TOOL_UNANSWERED");
      expect(textJson(bad).message).toContain("plan_route.output.stops");
    } finally {
      await s.close();
    }
  });

  test("declining is CLIENT_TOOL_UNANSWERED; a client without elicitation gets the typed error naming the tool", async () => {
    const declining = await connectLuma(project(), { onElicit: () => ({ action: "decline" }) });
    try {
      const r = await declining.client.callTool({ name: "confirm_address", arguments: { street: "x" } });
      expect(textJson(r)).toEqual({ code: "CLIENT_TOOL_UNANSWERED", message: "Client tool 'confirm_address' was not answered: the caller declined.", retryable: false });
    } finally {
      await declining.close();
    }
    const plain = await connectLuma(project());
    try {
      const r = await plain.client.callTool({ name: "confirm_address", arguments: { street: "x" } });
      expect(textJson(r).code).toBe("CLIENT_TOOL_UNANSWERED");
      expect(textJson(r).message).toBe("Client tool 'confirm_address' needs an answer (a Confirmed) from the caller: the MCP client cannot be asked (it does not support elicitation).");
    } finally {
      await plain.close();
    }
  });

  test("approval: Schema asks the client with the note's schema; the note reaches the handler as ctx.approval", async () => {
    const asked: any[] = [];
    const s = await connectLuma(project(), {
      onElicit: (message, schema) => {
        asked.push({ message, schema });
        return { action: "accept", content: { reason: "damaged" } };
      },
    });
    try {
      const r = await s.client.callTool({ name: "issue_refund", arguments: { order: "A-7" } });
      expect(r.structuredContent).toEqual({ note: "A-7: damaged" });
      expect(asked[0].message).toContain("issue_refund");
      expect(asked[0].schema).toEqual({ type: "object", properties: { reason: { type: "string" }, ticket: { type: "integer" } }, required: ["reason"] });
    } finally {
      await s.close();
    }
  });

  test("an answer that does not fit the form is refused with the validation message, never RUNTIME_ERROR", async () => {
    const s = await connectLuma(project(), {
      onElicit: (message): ElicitResult =>
        message.includes("Approve")
          ? { action: "accept", content: { reason: 42 } }
          : { action: "accept", content: { ok: "yes", zip: 12345 } },
    });
    try {
      const answer = textJson(await s.client.callTool({ name: "confirm_address", arguments: { street: "x" } }));
      expect(answer.code).toBe("CLIENT_TOOL_UNANSWERED");
      expect(answer.message).toStartWith("Client tool 'confirm_address' was not answered: the MCP client's answer was not taken: Elicitation response content does not match requested schema:");
      const note = textJson(await s.client.callTool({ name: "issue_refund", arguments: { order: "A-7" } }));
      expect(note.code).toBe("TOOL_PERMISSION_DENIED");
      expect(note.message).toStartWith("Tool 'issue_refund' was not approved: the MCP client's answer was not taken: Elicitation response content does not match requested schema:");
    } finally {
      await s.close();
    }
  });
});

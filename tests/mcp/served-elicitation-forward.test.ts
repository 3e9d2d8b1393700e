/**
 * Elicitation forwarded when Luma is served (docs/mcp.md "Elicitation from a server"): a
 * `luma mcp` method whose tool is an MCP server's (`mcp: "local"`) that asks for input mid-call
 * — the request goes on to the client of the served call, on that call's stream, and its answer
 * goes back to the server unchanged. A client without the elicitation capability: declined.
 * A sampling request's approval (`sampling.approval: "ask"`) is asked of that client the same way.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { connectLuma, project, stdioServers } from "./mcp-harness";

setDefaultTimeout(60_000);

const PROGRAM = `schema Said { text: string }
tool confirm(question: string) -> Said { mcp: "local"  side_effects: "read" }
agent Desk {
  tools: [confirm]
  fn check(question: string) -> string {
    return tool confirm({ question: question }).text
  }
}
`;

const served = () => project({ mcp_servers: { local: stdioServers().local } }, PROGRAM).file;

describe("luma mcp: a served call's MCP server elicits, the request goes to Luma's own client", () => {
  test("the server's form reaches the client as sent; the client's answer is the server's", async () => {
    const asked: { message: string; schema: unknown }[] = [];
    const s = await connectLuma([served()], {
      onElicit: (message, schema) => {
        asked.push({ message, schema });
        return { action: "accept", content: { ok: true } };
      },
    });
    try {
      const r = await s.client.callTool({ name: "Desk.check", arguments: { question: "Ship order 7?" } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ result: 'accept {"ok":true}' });
      expect(asked).toEqual([{ message: "Ship order 7?", schema: { type: "object", properties: { ok: { type: "boolean", title: "OK?" } }, required: ["ok"] } }]);
    } finally {
      await s.close();
    }
  });

  test("a client that declines declines for the server; a client without the capability is never asked (decline)", async () => {
    const declining = await connectLuma([served()], { onElicit: () => ({ action: "decline" }) });
    try {
      const r = await declining.client.callTool({ name: "Desk.check", arguments: { question: "Refund?" } });
      expect(r.structuredContent).toEqual({ result: "decline" });
    } finally {
      await declining.close();
    }
    const plain = await connectLuma([served()]);
    try {
      const r = await plain.client.callTool({ name: "Desk.check", arguments: { question: "Refund?" } });
      expect(r.structuredContent).toEqual({ result: "decline" });
    } finally {
      await plain.close();
    }
  });
});

describe("luma mcp: a sampling request's approval is asked of the served call's client", () => {
  const fake = startFakeProvider();
  afterAll(async () => (await fake).stop());
  const SAMPLING = `model M {
  provider: "openai"
  name: "gpt-5.4-mini"
}
schema Said { text: string }
tool sample(prompt: string) -> Said { mcp: "local"  side_effects: "read" }
agent Desk {
  tools: [sample]
  fn brief(text: string) -> string {
    return tool sample({ prompt: text }).text
  }
}
`;

  test("yes: the config's model answers the server; no: the server gets the user-rejected error", async () => {
    const provider = await fake;
    const file = project({ mcp_servers: { local: { ...stdioServers().local, sampling: { model: "M" } } } }, SAMPLING).file;
    const answers = [true, false];
    const asked: string[] = [];
    const s = await connectLuma([file], {
      env: { OPENAI_API_KEY: "k", LUMA_BASE_URL_M: provider.baseUrl("openai") },
      onElicit: (message) => {
        asked.push(message);
        return { action: "accept", content: { approve: answers.shift()! } };
      },
    });
    try {
      provider.script([{ text: "a short brief" }]);
      const yes = await s.client.callTool({ name: "Desk.brief", arguments: { text: "Brief me." } });
      expect(yes.structuredContent).toEqual({ result: "M: a short brief" });
      expect(asked[0]).toBe(`Approve a sampling request of MCP server 'local'? Model 'M' would answer: "Brief me."`);
      const no = await s.client.callTool({ name: "Desk.brief", arguments: { text: "Again." } });
      expect(no.structuredContent).toEqual({ result: "refused: -1 MCP error -1: Luma refused the sampling request of MCP server 'local': the person declined it." });
      // The model was asked for the approved request only.
      expect(provider.requests).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});

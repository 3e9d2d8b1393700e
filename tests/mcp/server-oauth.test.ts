/**
 * `luma mcp --http` with `mcp_serve.oauth` (docs/mcp.md "OAuth"): a local issuer started here
 * (its metadata and JWKS, its own key pair) signs tokens; the server serves its
 * protected-resource metadata, answers 401 with a Bearer challenge, accepts only that
 * issuer's JWTs for its audience and not expired, and a token's scopes decide the tools its
 * session sees and may call.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { connectHttp, runLumaAsync, startLumaHttp, tempDir, textJson, type HttpServer } from "./mcp-harness";

setDefaultTimeout(60_000);

const PROGRAM = `
schema Note { text: string }
tool read_note(id: string) -> Note { side_effects: "read"  scope: "notes:read" }
tool write_note(text: string) -> Note { side_effects: "write"  scope: "notes:write" }
tool ping() -> Note { side_effects: "none" }
agent Desk {
  tools: [read_note, write_note, ping]
  fn jot(text: string) -> Note {
    return tool write_note({ text: text })
  }
}
`;

interface Issuer {
  url: string;
  sign(claims: Record<string, unknown>, opts?: { key?: CryptoKey; expiresIn?: string }): Promise<string>;
  stop(): void;
}

async function startIssuer(): Promise<Issuer> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  let url = "";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/.well-known/oauth-authorization-server") return Response.json({ issuer: url, jwks_uri: `${url}/jwks`, token_endpoint: `${url}/token` });
      if (path === "/jwks") return Response.json({ keys: [jwk] });
      return new Response("not found", { status: 404 });
    },
  });
  url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    sign: (claims, opts = {}) =>
      new SignJWT({ iss: url, ...claims })
        .setProtectedHeader({ alg: "RS256", kid: "k1" })
        .setIssuedAt()
        .setExpirationTime(opts.expiresIn ?? "5m")
        .sign(opts.key ?? privateKey),
    stop: () => server.stop(true),
    // A key the issuer never published, for a forged token.
    ...{ otherKey: other.privateKey },
  } as Issuer & { otherKey: CryptoKey };
}

function project(config: object): string[] {
  const dir = tempDir();
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify(config));
  writeFileSync(join(dir, "tools.ts"), `export const read_note = (i) => ({ text: "note " + i.id });\nexport const write_note = (i) => ({ text: i.text });\nexport const ping = () => ({ text: "pong" });\n`);
  return [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")];
}

describe("luma mcp --http with mcp_serve.oauth", () => {
  let issuer: Issuer & { otherKey: CryptoKey };
  let server: HttpServer;
  beforeAll(async () => {
    issuer = (await startIssuer()) as Issuer & { otherKey: CryptoKey };
    server = await startLumaHttp(project({ mcp_serve: { oauth: { issuer: issuer.url } } }));
  });
  afterAll(async () => {
    await server.stop();
    issuer.stop();
  });

  test("the protected-resource metadata names the resource, the issuer and the scopes the tools use", async () => {
    const origin = new URL(server.url).origin;
    const res = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
    expect(await res.json()).toEqual({ resource: server.url, authorization_servers: [issuer.url], bearer_methods_supported: ["header"], scopes_supported: ["notes:read", "notes:write"] });
  });

  test("no token: 401 with a Bearer challenge pointing at the metadata", async () => {
    const res = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp"`);
  });

  test("a token's scopes are the session's tool_scopes: only granted tools are listed and callable", async () => {
    const token = await issuer.sign({ sub: "ada", aud: server.url, scope: "notes:read" });
    const client = await connectHttp(server.url, { headers: { authorization: `Bearer ${token}` } });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(["read_note", "ping", "Desk.jot"]);
      expect((await client.callTool({ name: "read_note", arguments: { id: "7" } })).structuredContent).toEqual({ text: "note 7" });
      expect(String(await client.callTool({ name: "write_note", arguments: { text: "x" } }).catch((e: Error) => e))).toContain("MCP error -32602: Unknown tool: 'write_note'");
      // A method's own calls are held to the grant too.
      const jot = await client.callTool({ name: "Desk.jot", arguments: { text: "x" } });
      expect(textJson(jot)).toEqual({ code: "TOOL_PERMISSION_DENIED", message: expect.stringContaining("notes:write"), retryable: false });
    } finally {
      await client.close();
    }
  });

  test("a session serves the grant it was opened with: a token granting other scopes is 403 insufficient_scope", async () => {
    const reader = await issuer.sign({ aud: server.url, scope: "notes:read" });
    const writer = await issuer.sign({ aud: server.url, scope: "notes:read notes:write" });
    const init = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${reader}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const list = (token: string) =>
      fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    const same = await list(reader);
    expect(same.status).toBe(200);
    await same.body?.cancel();
    const other = await list(writer);
    expect(other.status).toBe(403);
    expect(other.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope"');
  });

  const refused = async (token: string) => {
    const res = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: "{}" });
    return { status: res.status, challenge: res.headers.get("www-authenticate") ?? "" };
  };

  test("refused: another audience, another issuer, expired, a key the issuer never published", async () => {
    const cases = {
      audience: await issuer.sign({ aud: "https://elsewhere.example/mcp", scope: "notes:read" }),
      issuer: await issuer.sign({ aud: server.url, iss: "https://evil.example" }),
      expired: await issuer.sign({ aud: server.url }, { expiresIn: "-1m" }),
      forged: await issuer.sign({ aud: server.url }, { key: issuer.otherKey }),
    };
    for (const [why, token] of Object.entries(cases)) {
      const r = await refused(token);
      expect({ why, status: r.status, invalid: r.challenge.includes('error="invalid_token"') }).toEqual({ why, status: 401, invalid: true });
      expect(r.challenge).not.toContain(token);
    }
  });

  test("LUMA_MCP_TOKEN beside mcp_serve.oauth does not start (E0682); an issuer that cannot be read does not either (E0681)", async () => {
    const both = await runLumaAsync(["mcp", ...project({ mcp_serve: { oauth: { issuer: issuer.url } } }), "--http", "127.0.0.1:0"], { env: { LUMA_MCP_TOKEN: "s3cret-token" } });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("E0682");
    expect(both.stderr).not.toContain("s3cret-token");
    const gone = await runLumaAsync(["mcp", ...project({ mcp_serve: { oauth: { issuer: "http://127.0.0.1:9/nothing" } } }), "--http", "127.0.0.1:0"]);
    expect(gone.exitCode).toBe(2);
    expect(gone.stderr).toContain("E0681");
    expect(gone.stderr).toContain("mcp_serve.oauth.issuer http://127.0.0.1:9/nothing: cannot read the issuer's metadata");
  });
});

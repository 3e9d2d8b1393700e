/**
 * OAuth 2.1 of `mcp:` tools (docs/mcp.md, "OAuth 2.1"), through `dist/luma` against the
 * SDK's authorization server and bearer middleware (fixtures/oauth-server.ts): a 401 at
 * start-up prints the URL to open; the test opens it as the person's browser would; the
 * tokens are sealed with the store key and reused by the next run; they never appear in
 * Luma's output or in the clear in its file. Configuration errors name the key. (The
 * protocol's variants — metadata locations, scopes, step-up, client authentication, machine
 * clients — are the conformance suite's, tests/mcp/conformance-client.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ensureBinary } from "../support/luma-binary";
import { project, runLumaAsync } from "./mcp-harness";

setDefaultTimeout(60_000);

const PROGRAM = `schema Said { text: string }
tool whoami() -> Said { mcp: "secured"  side_effects: "read" }
print(tool whoami({}).text)
`;

let server: { url: string; proc: ReturnType<typeof Bun.spawn> };

beforeAll(async () => {
  const proc = Bun.spawn(["bun", resolve(import.meta.dir, "fixtures/oauth-server.ts")], { stdout: "pipe", stderr: "ignore" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
  server = { url: /READY (\S+)/.exec(text)![1], proc };
});
afterAll(() => server.proc.kill());

/** `dist/luma main.luma` in `dir`, opening every authorization URL it prints (the person's browser). */
async function runAuthorizing(dir: string, env: Record<string, string>) {
  const proc = Bun.spawn([ensureBinary(), join(dir, "main.luma")], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  const opened: string[] = [];
  const decoder = new TextDecoder();
  const watching = (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
      stderr += decoder.decode(chunk, { stream: true });
      for (const [, url] of stderr.matchAll(/^ {2}(http\S+)$/gm)) {
        if (!opened.includes(url)) {
          opened.push(url);
          void fetch(url).then((r) => r.text());
        }
      }
    }
  })();
  const stdout = await new Response(proc.stdout).text();
  await watching;
  return { stdout, stderr, opened, exitCode: await proc.exited };
}

const issued = async (): Promise<string[]> => (await fetch(new URL("/issued", server.url))).json() as Promise<string[]>;

describe("MCP client OAuth 2.1: a server that answers 401", () => {
  test("start-up prints the URL to open, the browser's redirect comes back to the loopback listener, and the call carries the token", async () => {
    const p = project({ mcp_servers: { secured: { url: server.url } } }, PROGRAM);
    const r = await runAuthorizing(p.dir, {});
    expect(r.stderr).toContain("MCP server 'secured' needs authorization. Open this URL in a browser to continue:\n");
    expect(r.opened.length).toBe(1);
    const url = new URL(r.opened[0]);
    expect([url.searchParams.get("code_challenge_method"), new URL(url.searchParams.get("redirect_uri")!).hostname]).toEqual(["S256", "127.0.0.1"]);
    expect(r.stdout).toBe("an authorized client\n");
    expect(r.exitCode).toBe(0);
    // Without the store key nothing is written: the token lived for the run only.
    expect(existsSync(join(p.dir, ".luma-mcp-oauth.json"))).toBe(false);
  });

  test("with the store key the tokens are sealed into .luma-mcp-oauth.json and the next run uses them without asking", async () => {
    const p = project({ mcp_servers: { secured: { url: server.url } } }, PROGRAM);
    const env = { LUMA_IDEMPOTENCY_KEY: "correct horse battery staple" };
    const first = await runAuthorizing(p.dir, env);
    expect([first.stdout, first.opened.length]).toEqual(["an authorized client\n", 1]);
    const file = readFileSync(join(p.dir, ".luma-mcp-oauth.json"), "utf8");
    const tokens = await issued();
    for (const token of tokens) {
      expect(file).not.toContain(token);
      expect(first.stdout + first.stderr).not.toContain(token);
    }
    const second = await runAuthorizing(p.dir, env);
    expect([second.stdout, second.opened.length, second.stderr]).toEqual(["an authorized client\n", 0, ""]);
    expect((await issued()).length).toBe(tokens.length);
    // Another key does not open the file: the server is authorized again.
    const other = await runAuthorizing(p.dir, { LUMA_IDEMPOTENCY_KEY: "another passphrase" });
    expect([other.stdout, other.opened.length]).toEqual(["an authorized client\n", 1]);
  });
});

describe("MCP client OAuth 2.1: configuration", () => {
  test("a client_credentials secret variable that is not set is E0690 naming the key and the variable", async () => {
    const p = project(
      { mcp_servers: { secured: { url: server.url, oauth: { grant_type: "client_credentials", client_id: "nightly", client_secret_env: "NIGHTLY_SECRET" } } } },
      PROGRAM,
    );
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("MCP server 'secured': mcp_servers.secured.oauth.client_secret_env names the environment variable NIGHTLY_SECRET, which is not set.");
    expect(r.stderr).toContain("E0690");
  });

  test("keys that do not fit the grant are a configuration error naming them", async () => {
    const p = project(
      { mcp_servers: { secured: { url: server.url, oauth: { grant_type: "client_credentials", client_id: "nightly", private_key_env: "KEY" } } } },
      PROGRAM,
    );
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'mcp_servers.secured.oauth.private_key_env' and 'mcp_servers.secured.oauth.signing_algorithm' go together");
  });

  test("a machine client the authorization server does not know is E0815 naming the server, without its secret", async () => {
    const p = project(
      { mcp_servers: { secured: { url: server.url, oauth: { grant_type: "client_credentials", client_id: "nightly", client_secret_env: "NIGHTLY_SECRET" } } } },
      PROGRAM,
    );
    const r = await runLumaAsync([p.file], { cwd: p.dir, env: { NIGHTLY_SECRET: "s3cr3t-value-123" } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`MCP server 'secured' at ${server.url} could not be authorized:`);
    expect(r.stderr).toContain("E0815");
    expect(r.stderr).not.toContain("s3cr3t-value-123");
  });
});

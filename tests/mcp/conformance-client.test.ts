/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, run offline under
 * Bun) against Luma as an MCP **client**: for each scenario the suite starts its own server
 * and runs `fixtures/conformance-client/run-client.ts`, which runs `dist/luma` on the
 * scenario's program (its fixed tool names behind Luma contracts) or `luma mcp import` where
 * the scenario lists no tool. docs/mcp.md's table says which scenarios apply and why.
 */
import { describe, expect, test, setDefaultTimeout } from "bun:test";
import { resolve } from "node:path";
import { ensureBinary } from "../support/luma-binary";

// The suite, its server, bun and dist/luma start per scenario: a loaded machine needs time.
setDefaultTimeout(60_000);

const CONFORMANCE = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = resolve(import.meta.dir, "fixtures/conformance-client/run-client.ts");

/** The client scenarios that apply (docs/mcp.md, "Conformance: the client"). */
export const CLIENT_SCENARIOS = [
  "initialize",
  "tools_call",
  "sse-retry",
  "elicitation-sep1034-client-defaults",
  ...["metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd"].map((s) => `auth/${s}`),
  ...["scope-from-www-authenticate", "scope-from-scopes-supported", "scope-omitted-when-undefined", "scope-step-up", "scope-retry-limit"].map((s) => `auth/${s}`),
  ...["token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none", "pre-registration"].map((s) => `auth/${s}`),
  ...["2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback", "resource-mismatch", "offline-access-scope", "offline-access-not-supported"].map((s) => `auth/${s}`),
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
];

async function runScenario(scenario: string) {
  ensureBinary();
  const proc = Bun.spawn(["bun", CONFORMANCE, "client", "--command", `bun ${CLIENT}`, "--scenario", scenario, "--timeout", "50000"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" },
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { out: out + err, exit: await proc.exited };
}

describe("MCP conformance suite: the client scenarios that apply, against dist/luma", () => {
  for (const scenario of CLIENT_SCENARIOS) {
    test(scenario, async () => {
      const { out, exit } = await runScenario(scenario);
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(out);
      expect({ summary: summary?.[0], exit, out: summary && exit === 0 ? "" : out }).toEqual({
        summary: `Passed: ${summary?.[2]}/${summary?.[2]}, 0 failed, 0 warnings`,
        exit: 0,
        out: "",
      });
    });
  }
});

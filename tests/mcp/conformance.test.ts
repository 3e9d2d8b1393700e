/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, run offline
 * under Bun) against `luma mcp --http`, for the server scenarios that apply to a server
 * of arbitrary tools. The `tools-call-*`, resources, prompts, logging and completion
 * scenarios call fixed tool names or features of the suite's own reference server, so
 * they do not apply (docs/mcp.md); the SDK-client tests beside this file cover tools/call.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { resolve } from "node:path";
import { SERVED, SERVED_TOOLS, startLumaHttp, type HttpServer } from "./mcp-harness";

// Real servers start here (bun, the SDK, server-everything): a loaded machine needs more than 5 s.
setDefaultTimeout(30_000);

const CONFORMANCE = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SCENARIOS = ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection"];

describe("MCP conformance suite: the server scenarios that apply", () => {
  let server: HttpServer;
  beforeAll(async () => void (server = await startLumaHttp([SERVED, "--tool-module", SERVED_TOOLS])));
  afterAll(() => server.stop());

  for (const scenario of SCENARIOS) {
    test(scenario, async () => {
      const proc = Bun.spawn(["bun", CONFORMANCE, "server", "--url", server.url, "--scenario", scenario], {
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1" },
      });
      const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      const code = await proc.exited;
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
      expect({ summary: summary?.[0], failed: summary?.[3], exit: code, out: summary ? "" : out + err }).toEqual({
        summary: `Passed: ${summary?.[2]}/${summary?.[2]}, 0 failed`,
        failed: "0",
        exit: 0,
        out: "",
      });
    });
  }
});

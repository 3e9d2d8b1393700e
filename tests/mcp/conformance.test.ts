/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, run offline
 * under Bun) against `luma mcp` serving the fixture program of fixtures/conformance/ — its
 * tools carry the scenarios' fixed names — over Streamable HTTP and over stdio (through the
 * relay of support/stdio-relay.ts, since the suite speaks only HTTP).
 *
 * The table below names every server scenario of the suite: the ones that apply run here,
 * the others say why not; docs/mcp.md shows the same table, and a test holds the two (and the
 * suite's own list) together. A scenario "passes" when the suite counts no failure; the
 * warnings it may give are named in the table.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startLumaHttp, type HttpServer } from "./mcp-harness";
import { startStdioRelay, type Relay } from "./support/stdio-relay";

// Real servers start here (bun, the SDK, the suite): a loaded machine needs more than 5 s.
setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, "../..");
const CONFORMANCE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const FIXTURE = join(import.meta.dir, "fixtures/conformance");
const ARGS = [join(FIXTURE, "server.luma"), "--tool-module", join(FIXTURE, "tools.ts")];
const ENV = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LUMA_NO_CACHE: "1", NO_COLOR: "1" };

type Applies = { http: true; stdio: boolean } | { http: false; why: string };

/** Every server scenario of the suite (0.1.16), and whether it applies — over which transport. */
export const SCENARIOS: Record<string, Applies> = {
  "server-initialize": { http: true, stdio: true },
  "logging-set-level": { http: true, stdio: true },
  ping: { http: true, stdio: true },
  "completion-complete": { http: false, why: "completion is for prompt and resource-template arguments chosen from open lists; Luma has no prompts, and a template's parameters are typed (an enum is in its schema)" },
  "tools-list": { http: true, stdio: true },
  "tools-call-simple-text": { http: true, stdio: true },
  "tools-call-image": { http: false, why: "a Luma tool returns a typed JSON value (structuredContent and its text): no image content" },
  "tools-call-audio": { http: false, why: "a Luma tool returns a typed JSON value: no audio content" },
  "tools-call-embedded-resource": { http: false, why: "a Luma tool returns a typed JSON value: no embedded resource content" },
  "tools-call-mixed-content": { http: false, why: "a Luma tool returns one typed JSON value: no image or resource content beside its text" },
  "tools-call-with-logging": { http: true, stdio: true },
  "tools-call-error": { http: true, stdio: true },
  "tools-call-with-progress": { http: true, stdio: true },
  "tools-call-sampling": { http: false, why: "sampling serves a model (`provider: \"mcp\"`) for an agent method's `ask`; methods are served as `Agent.method`, never under the fixed name `test_sampling`" },
  "tools-call-elicitation": { http: true, stdio: true },
  "json-schema-2020-12": { http: true, stdio: true },
  "elicitation-sep1034-defaults": { http: true, stdio: true },
  "server-sse-polling": { http: true, stdio: false },
  "server-sse-multiple-streams": { http: true, stdio: false },
  "elicitation-sep1330-enums": { http: false, why: "Luma's schemas have untitled enums only: no titled single- or multi-select (oneOf/anyOf of const with title), no enumNames" },
  "resources-list": { http: true, stdio: true },
  "resources-read-text": { http: false, why: "reads the fixed URI test://static-text; Luma's resources are its queries, at luma://query/NAME, and return JSON" },
  "resources-read-binary": { http: false, why: "reads the fixed URI test://static-binary; a query's result is JSON text, never a blob" },
  "resources-templates-read": { http: false, why: "reads the fixed URI test://template/123/data; Luma's templates are luma://query/NAME{?params}" },
  "resources-subscribe": { http: false, why: "a query's result has no change notifications to subscribe to" },
  "resources-unsubscribe": { http: false, why: "a query's result has no change notifications to subscribe to" },
  "prompts-list": { http: false, why: "Luma serves no prompts" },
  "prompts-get-simple": { http: false, why: "Luma serves no prompts" },
  "prompts-get-with-args": { http: false, why: "Luma serves no prompts" },
  "prompts-get-embedded-resource": { http: false, why: "Luma serves no prompts" },
  "prompts-get-with-image": { http: false, why: "Luma serves no prompts" },
  "dns-rebinding-protection": { http: true, stdio: false },
};

async function runScenario(url: string, scenario: string): Promise<{ summary?: string; out: string }> {
  const proc = Bun.spawn(["bun", CONFORMANCE, "server", "--url", url, "--scenario", scenario], { stdout: "pipe", stderr: "pipe", env: ENV });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  return { summary: /Passed: \d+\/\d+, \d+ failed/.exec(out)?.[0], out: out + err };
}

const passed = (summary: string | undefined) => summary !== undefined && /Passed: (\d+)\/\1, 0 failed/.test(summary);

describe("the scenario table", () => {
  test("names every server scenario the suite lists", async () => {
    const proc = Bun.spawn(["bun", CONFORMANCE, "list"], { stdout: "pipe", env: ENV });
    const listed = (await new Response(proc.stdout).text()).split("Client scenarios")[0];
    const names = [...listed.matchAll(/^\s+- (\S+) \[/gm)].map((m) => m[1]);
    expect(names.sort()).toEqual(Object.keys(SCENARIOS).sort());
  });

  test("docs/mcp.md shows the same table: each scenario, applying over the same transports", () => {
    const page = readFileSync(join(ROOT, "docs/mcp.md"), "utf8");
    for (const [name, applies] of Object.entries(SCENARIOS)) {
      const row = page.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
      expect({ name, row: row !== undefined }).toEqual({ name, row: true });
      const cells = row!.split("|").map((c) => c.trim());
      const expected = applies.http ? ["yes", applies.stdio ? "yes" : "—"] : ["no", "no"];
      expect({ name, http: cells[2], stdio: cells[3] }).toEqual({ name, http: expected[0], stdio: expected[1] });
    }
  });
});

describe("over Streamable HTTP (luma mcp --http)", () => {
  let server: HttpServer;
  beforeAll(async () => void (server = await startLumaHttp(ARGS)));
  afterAll(() => server.stop());
  for (const [scenario, applies] of Object.entries(SCENARIOS)) {
    if (!applies.http) continue;
    test(scenario, async () => {
      const { summary, out } = await runScenario(server.url, scenario);
      expect({ scenario, passed: passed(summary), out: passed(summary) ? "" : out }).toEqual({ scenario, passed: true, out: "" });
    });
  }
});

describe("over stdio (luma mcp, through the test relay)", () => {
  let relay: Relay;
  beforeAll(async () => void (relay = await startStdioRelay(ARGS, ENV)));
  afterAll(() => relay.stop());
  for (const [scenario, applies] of Object.entries(SCENARIOS)) {
    if (!applies.http || !applies.stdio) continue;
    test(scenario, async () => {
      const { summary, out } = await runScenario(relay.url, scenario);
      expect({ scenario, passed: passed(summary), out: passed(summary) ? "" : out }).toEqual({ scenario, passed: true, out: "" });
    });
  }
});

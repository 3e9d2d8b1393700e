/**
 * §14 a model's base URL is named by its origin only, through the real binary: the path and
 * query of `LUMA_BASE_URL_M` (where gateways put account ids and keys) carry a canary, and
 * every provider error path — connection refused, DNS failure, TLS, HTTP status errors whose
 * body echoes the path and query, bad bodies, timeouts, an unusable scheme — is searched for
 * it in stdout, stderr, the trace file and a recorded cassette.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KEYS, type ProviderKind } from "../ask/ask-harness";
import { loggingServer, never, runProgram } from "./provider-servers";

const PATH_CANARY = "acct-PATHC4NARY-7f3e";
const QUERY_CANARY = "tok-QUERYC4NARY-91ab";
const CANARY_MARKS = ["C4NARY", encodeURIComponent(PATH_CANARY), encodeURIComponent(QUERY_CANARY)];

const dirs: string[] = [];
const servers: { stop(): void }[] = [];
afterAll(() => {
  servers.forEach((s) => s.stop());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** `origin` + a path and query carrying the canaries, as a gateway's base URL would. */
const withCanaries = (origin: string, suffix = "/v1") => `${origin}/gw/${PATH_CANARY}${suffix}?key=${QUERY_CANARY}`;

/** Runs `kind`'s program against `baseUrl` with a trace file; everything the run wrote, in one string. */
async function runTraced(kind: ProviderKind, baseUrl: string, opts: { modelExtra?: string; args?: string[] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "luma-url-leak-"));
  dirs.push(dir);
  const trace = join(dir, "trace.jsonl");
  const r = await runProgram(kind, baseUrl, { modelExtra: opts.modelExtra, args: ["--trace", trace, ...(opts.args ?? [])] });
  const traceText = existsSync(trace) ? readFileSync(trace, "utf8") : "";
  return { ...r, all: `${r.stdout}\n${r.stderr}\n${traceText}`, traceText, dir };
}

function expectNoCanary(text: string): void {
  for (const mark of CANARY_MARKS) expect(text).not.toContain(mark);
  expect(text).not.toContain("    at "); // no stack trace
}

/** A server that answers every request with `status` and a body quoting the path and query it was sent to. */
function echoingServer(status: number, json: boolean) {
  const s = loggingServer(() => undefined);
  servers.push(s);
  const echo = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      const said = `no route for POST ${u.pathname}${u.search} (${decodeURIComponent(u.pathname)}; ${req.url})`;
      return json
        ? Response.json({ error: { message: said, type: "invalid_request_error" } }, { status })
        : new Response(said, { status, headers: { "content-type": "text/plain" } });
    },
  });
  servers.push({ stop: () => echo.stop(true) });
  return `http://127.0.0.1:${echo.port}`;
}

describe("§14 provider errors name the base URL's origin, never its path or query", () => {
  test("connection refused names the origin; nothing of the path or query in the message or the trace", async () => {
    const r = await runTraced("openai", withCanaries("http://127.0.0.1:9"));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`[PROVIDER_ERROR] Model 'M' (provider "openai") could not be reached at http://127.0.0.1:9: `);
    expect(r.traceText).toContain('"event":"provider.request"');
    expectNoCanary(r.all);
  }, 60_000);

  test("a DNS failure and a TLS handshake failure name the origin only", async () => {
    const dns = await runTraced("anthropic", withCanaries("http://no-such-host.invalid", ""));
    expect(dns.exitCode).toBe(1);
    expect(dns.stderr).toContain(`could not be reached at http://no-such-host.invalid: `);
    expectNoCanary(dns.all);
    const plain = loggingServer();
    servers.push(plain);
    const tlsOrigin = plain.url.replace("http:", "https:");
    const tls = await runTraced("gemini", withCanaries(tlsOrigin, ""));
    expect(tls.exitCode).toBe(1);
    expect(tls.stderr).toContain(`could not be reached at ${tlsOrigin}: `);
    expectNoCanary(tls.all);
  }, 60_000);

  const FAMILIES: ProviderKind[] = ["openai", "openai-responses", "azure", "azure-dated", "anthropic", "gemini"];
  test("an HTTP error whose body quotes the path and query (JSON or plain text) is passed on with them redacted, in every family", async () => {
    const jsonOrigin = echoingServer(400, true);
    const textOrigin = echoingServer(404, false);
    for (const kind of FAMILIES) {
      for (const [origin, status] of [[jsonOrigin, 400], [textOrigin, 404]] as const) {
        const suffix = { openai: "/v1", "openai-responses": "/v1", "openai-compatible": "/v1", azure: "/openai/v1", "azure-dated": "/openai", anthropic: "", gemini: "" }[kind];
        const r = await runTraced(kind, withCanaries(origin, suffix));
        expect(r.exitCode).toBe(1);
        expect(r.stderr).toContain(`request failed with HTTP ${status}: `);
        expect(r.stderr).toContain("no route for POST /gw/[redacted]"); // the echo is there, the tokens are not
        expectNoCanary(r.all);
      }
    }
  }, 120_000);

  test("a body Luma cannot read, and a provider that never answers, say nothing of the path or query", async () => {
    const odd = loggingServer((path) => (path.includes("stall") ? never() : new Response(`not json: ${path}`, { status: 200 })));
    servers.push(odd);
    const bad = await runTraced("openai", withCanaries(odd.url));
    expect(bad.stderr).toContain("sent a response Luma cannot read: ");
    expectNoCanary(bad.all);
    const slow = await runTraced("openai", withCanaries(odd.url, "/stall/v1"), { modelExtra: "timeout: 200" });
    expect(slow.stderr).toContain("did not answer within its 200 ms timeout");
    expectNoCanary(slow.all);
  }, 60_000);

  test("a base URL that is not http: or https: is refused before any request: file: is not read, its path is not quoted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-url-file-"));
    dirs.push(dir);
    // What fetch would read and quote back (the parse error names the body's first word).
    const target = join(dir, "gw", PATH_CANARY, "v1", "chat");
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, "completions"), "LOCALFILEC4NARY is what the file says");
    for (const [url, why] of [
      [`file://${dir}/gw/${PATH_CANARY}/v1`, "has the scheme file:"],
      [`s3://bucket-x/gw/${PATH_CANARY}/v1?key=${QUERY_CANARY}`, "has the scheme s3:"],
      [`not a url/gw/${PATH_CANARY}?key=${QUERY_CANARY}`, "is not a URL"],
    ] as const) {
      const r = await runTraced("openai", url);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`[PROVIDER_ERROR] Model 'M' (provider "openai") was not sent: its base URL ${why}; only http: and https: URLs are used (check base_url) at `);
      expect(r.all).not.toContain("LOCALFILEC4NARY");
      expectNoCanary(r.all);
    }
  }, 60_000);

  test("a recorded cassette keeps the origin of the request URL, not the path's or query's tokens", async () => {
    const ok = loggingServer();
    servers.push(ok);
    const dir = mkdtempSync(join(tmpdir(), "luma-url-cassette-"));
    dirs.push(dir);
    const cassette = join(dir, "c.jsonl");
    // (A query would end up before the adapter's route, which the server would not answer.)
    const r = await runTraced("anthropic", `${ok.url}/gw/${PATH_CANARY}`, { args: ["--record", cassette] });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    // The request really went to the canary path (the server saw it)…
    expect(ok.requests.at(-1)?.path).toContain(PATH_CANARY);
    // …and the cassette written for the repository does not hold it.
    const recorded = readFileSync(cassette, "utf8");
    expect(recorded).toContain(`${ok.url}/gw/[redacted]/v1/messages`);
    expectNoCanary(recorded + r.all);
    expect(recorded).not.toContain(KEYS.anthropic.ANTHROPIC_API_KEY);
  }, 60_000);
});

/**
 * Issue #28 §3, through the real `dist/luma` against an HTTP server on loopback (Bun.serve):
 * http_get and http_send of `luma:std` reach only the hosts `std.http_hosts` lists (exact
 * host, or host:port), follow no redirect, read at most 1 MiB of a body, take secret
 * headers only from `std.http_headers_env` (environment variable names, like a tool's
 * `credential`) — and the secret appears in no output and no trace.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attempt, luma, project } from "./std-project";

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
const seen: Seen[] = [];
let server: ReturnType<typeof Bun.serve>;
let other: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      seen.push({ method: req.method, path: url.pathname, headers: Object.fromEntries(req.headers), body: await req.text() });
      switch (url.pathname) {
        case "/hello":
          return new Response("hi there", { headers: { "x-answer": "42", "set-cookie": "session=abc" } });
        case "/missing":
          return new Response("no such page", { status: 404 });
        case "/redirect":
          return new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${other.port}/stolen` } });
        case "/big":
          return new Response("x".repeat(1_048_577));
        case "/echo":
          return Response.json({ method: req.method, auth: req.headers.get("authorization"), key: req.headers.get("idempotency-key") });
        default:
          return new Response("?", { status: 400 });
      }
    },
  });
  other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("other server reached") });
});
afterAll(() => {
  server.stop(true);
  other.stop(true);
});

const IMPORT = `import { http_get, http_send, StdHttpResponse } from "luma:std"\n`;
const base = () => `http://127.0.0.1:${server.port}`;
const config = (std: object) => JSON.stringify({ std });

describe("http_get and http_send on a listed host", () => {
  test("status, headers (without set-cookie) and text; an error status is a result, not a failure", async () => {
    const dir = project({
      "luma.config.json": config({ http_hosts: [`127.0.0.1:${server.port}`] }),
      "main.luma": `${IMPORT}r: StdHttpResponse = tool http_get({ url: "${base()}/hello", headers: { "Accept": "text/plain" } })
print("{r.status} {r.text} {r.headers["x-answer"]} {r.headers["set-cookie"]}")
m = tool http_get({ url: "${base()}/missing" })
print("{m.status} {m.text}")
`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("200 hi there 42 null\n404 no such page\n");
    expect(seen.find((s) => s.path === "/hello")?.headers.accept).toBe("text/plain");
  });

  test("http_send sends its method and body, and request_id as the Idempotency-Key header", async () => {
    const dir = project({
      "luma.config.json": config({ http_hosts: ["127.0.0.1"] }),
      "main.luma": `${IMPORT}r = tool http_send({ method: "POST", url: "${base()}/echo", body: "payload", request_id: "order-7" })
print(r.text)
`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stdout).toBe('{"method":"POST","auth":null,"key":"order-7"}\n');
    expect(seen.findLast((s) => s.path === "/echo")?.body).toBe("payload");
  });

  test("a redirect is returned as it is, never followed to a host off the list", async () => {
    const dir = project({
      "luma.config.json": config({ http_hosts: [`127.0.0.1:${server.port}`] }),
      "main.luma": `${IMPORT}r = tool http_get({ url: "${base()}/redirect" })
print("{r.status} {r.headers.location}")
`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stdout).toBe(`302 http://127.0.0.1:${other.port}/stolen\n`);
    expect(r.stdout).not.toContain("other server reached");
  });

  test("a body over 1 MiB is STD_HTTP_ERROR, not a cut text", async () => {
    const dir = project({
      "luma.config.json": config({ http_hosts: [`127.0.0.1:${server.port}`] }),
      "main.luma": `${IMPORT}${attempt(`tool http_get({ url: "${base()}/big" }).status`)}`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stdout).toBe("STD_HTTP_ERROR: Tool 'http_get': the response body is 1048577 bytes, more than the 1048576 it reads.\n");
  });
});

describe("refusals name the key that would allow the call", () => {
  const hostsDenied = (what: string) => `TOOL_PERMISSION_DENIED: Tool 'http_get' refused ${what}: see luma.config.json 'std.http_hosts'.`;

  test("no host is listed by default; another port, another host and other schemes are refused", async () => {
    const none = project({ "main.luma": `${IMPORT}${attempt(`tool http_get({ url: "${base()}/hello" })`)}` });
    expect((await luma(["main.luma"], none)).stdout).toBe(`${hostsDenied(`the host 127.0.0.1:${server.port} (no host is listed)`)}\n`);

    const dir = project({
      "luma.config.json": config({ http_hosts: [`127.0.0.1:${server.port}`] }),
      "main.luma": `${IMPORT}${attempt(`tool http_get({ url: "http://127.0.0.1:${other.port}/" })`)}${attempt(`tool http_get({ url: "http://localhost:${server.port}/hello" })`)}${attempt('tool http_get({ url: "file:///etc/passwd" })')}${attempt(`tool http_get({ url: "http://user:pw@127.0.0.1:${server.port}/hello" })`)}`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stdout.trim().split("\n")).toEqual([
      hostsDenied(`the host 127.0.0.1:${other.port}`),
      hostsDenied(`the host localhost:${server.port}`),
      hostsDenied("file: URLs (only http: and https:)"),
      "TOOL_PERMISSION_DENIED: Tool 'http_get' refused a URL with credentials in it (use std.http_headers_env): see luma.config.json 'std.http_headers_env'.",
    ]);
  });

  test("a secret header comes only from std.http_headers_env: sent, yet in no output or trace; unset, refused by name", async () => {
    const dir = project({
      "luma.config.json": config({ http_hosts: [`127.0.0.1:${server.port}`], http_headers_env: { [`127.0.0.1:${server.port}`]: { Authorization: "ECHO_TOKEN" } } }),
      "main.luma": `${IMPORT}r = tool http_send({ method: "PUT", url: "${base()}/echo" })
print(r.text)
${attempt(`tool http_get({ url: "${base()}/hello", headers: { "Authorization": "Bearer inline" } })`)}${attempt(`tool http_get({ url: "${base()}/hello", headers: { "X-Api-Key": "inline" } })`)}`,
    });
    const secret = "Bearer s3cr3t-value";
    const r = await luma(["main.luma", "--trace", "trace.jsonl"], dir, { ECHO_TOKEN: secret });
    const denied = (name: string) => `TOOL_PERMISSION_DENIED: Tool 'http_get' refused the header '${name}' in its input (a secret header comes from the environment): see luma.config.json 'std.http_headers_env'.`;
    expect(r.stdout.trim().split("\n")).toEqual([`{"method":"PUT","auth":"${secret}","key":null}`, denied("Authorization"), denied("X-Api-Key")]);
    const trace = readFileSync(join(dir, "trace.jsonl"), "utf8");
    expect(trace).toContain('"http_send"');
    // The server echoed it into the body: the only place it appears is what the program printed.
    expect(trace.replaceAll(JSON.stringify(`{"method":"PUT","auth":"${secret}","key":null}`).slice(1, -1), "")).not.toContain("s3cr3t");

    const unset = await luma(["main.luma"], dir);
    expect(unset.stdout.split("\n")[0]).toBe("");
    expect(unset.stderr).toContain("[TOOL_PERMISSION_DENIED] Tool 'http_send' refused the call: missing credential ECHO_TOKEN for header 'Authorization': see luma.config.json 'std.http_headers_env'.");
  });

  test("a host in http_headers_env that http_hosts does not list is E1302; a malformed host entry is a config error", async () => {
    const dir = project({
      "luma.config.json": config({ http_hosts: ["api.example.com"], http_headers_env: { "api.exmple.com": { Authorization: "T" } } }),
      "bad.json": config({ http_hosts: ["http://api.example.com/"] }),
      "main.luma": `${IMPORT}print(1)\n`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`'std.http_headers_env' names "api.exmple.com", which 'std.http_hosts' does not list.`);
    expect(r.stderr).toContain("E1302");
    const bad = await luma(["main.luma", "--config", "bad.json"], dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("std.http_hosts[0]");
    writeFileSync(join(dir, "bad.json"), config({ http_hosts: ["a.com"], http_headers_env: { "a.com": { "Bad Header": "T" } } }));
    const badName = await luma(["main.luma", "--config", "bad.json"], dir);
    expect(badName.stderr).toContain("'std.http_headers_env.a.com' has 'Bad Header', which is not a header name");
  });
});

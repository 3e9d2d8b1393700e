/**
 * Issue #26 §4, who may call `luma serve` and how it stops, through `dist/luma`: loopback by
 * default; any other address needs LUMA_SERVE_TOKEN (else exit 2, E0671) and then every
 * request carries it (401 otherwise, before anything else is told); CORS only for `--cors
 * ORIGIN`; SIGTERM lets requests in flight finish, or aborts them at LUMA_SERVE_DRAIN_MS.
 * Also the status table itself (error-answer.ts), 409 included.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { LumaError } from "../../src/diagnostics/luma-error";
import { statusOf } from "../../src/serve/error-answer";
import { post, project, serve, serveEnds } from "./serve-harness";

setDefaultTimeout(60_000);

const program = `schema Order { id: int  status: string }
tool lookup_order(id: int) -> Order {}
tool slow_lookup(id: int) -> Order {}
agent Support {
  tools: [lookup_order, slow_lookup]
  fn status(id: int) -> Order { return tool lookup_order({ id: id }) }
  fn slow(id: int) -> Order { return tool slow_lookup({ id: id }) }
}
agent Personal(user: string) { fn hello() -> string { return "hi {user}" } }
agent Billing { fn total() -> int { return 42 } }
`;

describe("issue #26 §4: start-up refusals (exit 2, nothing listens)", () => {
  const cases: [string, string[], Record<string, string>, string, string][] = [
    ["a non-loopback address without LUMA_SERVE_TOKEN", ["--http", "0.0.0.0:0"], {}, "E0671", "0.0.0.0 is not a loopback address"],
    ["an empty LUMA_SERVE_TOKEN", ["--http", "127.0.0.1:0"], { LUMA_SERVE_TOKEN: " " }, "E0671", "LUMA_SERVE_TOKEN is set but empty"],
    ["an address that is not HOST:PORT", ["--http", "127.0.0.1:99999"], {}, "E0670", "expected HOST:PORT or PORT"],
    ["--agent naming no agent", ["--agent", "Suport"], {}, "E0672", "declares no agent 'Suport' (agents: Support, Personal, Billing)"],
    ["LUMA_SERVE_READ_MS of 0", [], { LUMA_SERVE_READ_MS: "0" }, "E0675", "LUMA_SERVE_READ_MS must be a whole number of milliseconds (at least 1) (got '0')"],
    ["--cors with a path", ["--cors", "https://app.example.com/chat"], {}, "E0673", "expected one origin"],
    ["--cors *", ["--cors", "*"], {}, "E0673", "expected one origin"],
    ["LUMA_SERVE_DRAIN_MS that is not a number", [], { LUMA_SERVE_DRAIN_MS: "10s" }, "E0674", "LUMA_SERVE_DRAIN_MS must be a whole number of milliseconds (got '10s')"],
  ];
  for (const [name, args, env, code, text] of cases) {
    test(name, async () => {
      const r = await serveEnds(project(program), ["--http", "127.0.0.1:0", ...args], env);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(code);
      expect(r.stderr).toContain(text);
      expect(r.stderr).not.toContain("    at ");
    });
  }

  test("an unknown option is a usage error naming it (exit 64)", async () => {
    const r = await serveEnds(project(program), ["--port", "1"]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain("unknown option --port for luma serve");
  });
});

describe("issue #26 §4: --agent", () => {
  test("without it every agent is served (one with parameters given them by each request, agent-params.test.ts); with it only those named", async () => {
    const all = await serve(project(program), []);
    const only = await serve(project(program), ["--agent", "Billing"]);
    try {
      expect(all.stderr()).toContain("(agents: Support, Personal, Billing;");
      expect(await (await post(`${all.url}/agents/Billing/total`, {})).json()).toBe(42);
      expect(only.stderr()).toContain("(agents: Billing;");
      expect(await (await post(`${only.url}/agents/Billing/total`, {})).json()).toBe(42);
      const left = await post(`${only.url}/agents/Support/status`, { id: 1 });
      expect(left.status).toBe(404);
      expect(((await left.json()) as any).error.message).toBe("No agent 'Support' is served here (served: Billing).");
    } finally {
      await Promise.all([all.stop(), only.stop()]);
    }
  });
});

describe("issue #26 §4: LUMA_SERVE_TOKEN", () => {
  test("off loopback with the token: 401 without it or with a wrong one (WWW-Authenticate), 200 with it; the token is never printed", async () => {
    const token = "s3cret-token-value";
    const s = await serve(project(program), ["--http", "0.0.0.0:0"], { LUMA_SERVE_TOKEN: token });
    try {
      const url = s.url.replace("0.0.0.0", "127.0.0.1");
      const none = await post(`${url}/agents/Support/status`, { id: 1 });
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toContain("Bearer");
      expect(((await none.json()) as any).error.code).toBe("REQUEST_UNAUTHORIZED");
      // Even an unknown agent is not told apart without the token.
      expect((await post(`${url}/agents/Nobody/x`, {}, { authorization: "Bearer wrong" })).status).toBe(401);
      const ok = await post(`${url}/agents/Support/status`, { id: 1 }, { authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ id: 1, status: "shipped" });
    } finally {
      const { stderr } = await s.stop();
      expect(stderr).not.toContain(token);
    }
  });
});

describe("issue #26 §4: --cors ORIGIN", () => {
  test("the named origin gets Access-Control-Allow-Origin and its preflight 204; another origin gets neither", async () => {
    const s = await serve(project(program), ["--cors", "http://localhost:5173"]);
    try {
      const pre = await fetch(`${s.url}/chat/Support`, { method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      expect(pre.headers.get("access-control-allow-headers")).toContain("content-type");
      const ok = await post(`${s.url}/agents/Support/status`, { id: 2 }, { origin: "http://localhost:5173" });
      expect(ok.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      const other = await fetch(`${s.url}/agents/Support/status`, { method: "OPTIONS", headers: { origin: "https://evil.example" } });
      expect(other.status).toBe(403);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await s.stop();
    }
  });
});

describe("issue #26 §4: graceful SIGTERM", () => {
  test("a request in flight finishes after SIGTERM; then the server exits 0 and takes no new connection", async () => {
    const s = await serve(project(program), [], { SLOW_MS: "1200" });
    const inFlight = post(`${s.url}/agents/Support/slow`, { id: 9 });
    await Bun.sleep(300);
    const stopped = s.stop("SIGTERM");
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 9, status: "late" });
    expect((await stopped).exitCode).toBe(0);
    await expect(post(`${s.url}/agents/Support/status`, { id: 1 })).rejects.toThrow();
  });

  test("past LUMA_SERVE_DRAIN_MS a request still running is aborted, and the server exits 0 without waiting for it", async () => {
    const s = await serve(project(program), [], { SLOW_MS: "20000", LUMA_SERVE_DRAIN_MS: "200" });
    const inFlight = post(`${s.url}/agents/Support/slow`, { id: 9 }).then(async (r) => ({ status: r.status, body: await r.json() }), (e: Error) => ({ status: 0, body: e.message }));
    await Bun.sleep(300);
    const started = Date.now();
    const { exitCode } = await s.stop("SIGTERM");
    expect(exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    const r = await inFlight;
    // The aborted call answers its error if it can still be sent; either way it did not run to its end.
    expect(r.status === 0 || r.status >= 500).toBe(true);
  });
});

describe("issue #26 §4: the status of each failure (error-answer.ts)", () => {
  const table: [string, unknown, number][] = [
    ["TOOL_INPUT_INVALID", undefined, 400],
    ["REQUEST_INVALID", undefined, 400],
    ["REQUEST_INVALID", { max_bytes: 1 }, 413],
    ["REQUEST_UNAUTHORIZED", undefined, 401],
    ["TOOL_PERMISSION_DENIED", undefined, 403],
    ["AGENT_NOT_FOUND", undefined, 404],
    ["THREAD_CONFLICT", undefined, 409],
    ["TOOL_IDEMPOTENCY_CONFLICT", undefined, 409],
    ["PROVIDER_ERROR", { status: 500 }, 502],
    ["PROVIDER_ERROR", { timeout_ms: 100 }, 504],
    ["TOOL_TIMEOUT", undefined, 504],
    ["TOOL_HANDLER_ERROR", undefined, 500],
    ["RUNTIME_ERROR", undefined, 500],
  ];
  for (const [code, details, status] of table) {
    test(`${code}${details ? ` ${JSON.stringify(details)}` : ""} → ${status}`, () => {
      expect(statusOf(new LumaError({ code, message: "m", details }))).toBe(status);
    });
  }
});

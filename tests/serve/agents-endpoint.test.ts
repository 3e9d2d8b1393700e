/**
 * Issue #26 §4, `POST /agents/{Agent}/{method}` of `luma serve` through `dist/luma`: named
 * JSON arguments in, the typed result out; a LumaError is `{ "error": { code, message,
 * retryable } }` with the status its code means — 400 invalid input, 403 refused by policy,
 * 404 unknown agent or method, 502 provider, 504 timeout, else 500 — and a body over the limit
 * is 413. The program's top-level code does not run. Each request is a trace of its own.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { startReceiver } from "../telemetry/otlp-receiver";
import { post, project, serve, type Served } from "./serve-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
schema Order { id: int  status: string }
schema Verdict { ok: bool  reason: string }
tool lookup_order(id: int) -> Order {}
tool slow_lookup(id: int) -> Order { timeout: 100 }
tool fail_lookup(id: int) -> Order {}
tool cancel_order(id: int) -> Order { side_effects: "write" }
agent Support {
  model: M
  tools: [lookup_order, slow_lookup, fail_lookup]
  fn status(id: int) -> Order { return tool lookup_order({ id: id }) }
  fn judge(text: string) -> Verdict { ask "Judge: {text}" -> Verdict }
  fn slow(id: int) -> Order { return tool slow_lookup({ id: id }) }
  fn broken(id: int) -> Order { return tool fail_lookup({ id: id }) }
}
agent Careful {
  tool_policy: "deny_write"
  tools: [cancel_order]
  fn cancel(id: int) -> Order { return tool cancel_order({ id: id }) }
}
agent Personal(user: string) {
  fn hello() -> string { return "hi {user}" }
}
print("top-level code ran")
`;

const env = () => ({ ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai"), SLOW_MS: "2000" });
let s: Served;
beforeAll(async () => {
  s = await serve(project(program), [], env());
});
afterAll(() => s.stop());

const call = async (path: string, body: unknown) => {
  const res = await post(`${s.url}${path}`, body);
  return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as any };
};

describe("issue #26 §4: POST /agents/{Agent}/{method}", () => {
  test("named arguments in, the typed result out as JSON; the top-level code did not run", async () => {
    const r = await call("/agents/Support/status", { id: 7 });
    expect(r).toEqual({ status: 200, type: "application/json", body: { id: 7, status: "shipped" } });
    expect(s.stderr()).not.toContain("top-level code ran");
  });

  test("a method that asks: its ask goes to the model, the validated value comes back", async () => {
    fake.script([{ json: { ok: true, reason: "fine" } }]);
    const r = await call("/agents/Support/judge", { text: "refund 7" });
    expect(r.body).toEqual({ ok: true, reason: "fine" });
    expect(JSON.stringify(fake.requests[0].body.messages)).toContain("Judge: refund 7");
  });

  const refusals: [string, string, unknown, number, string, RegExp][] = [
    ["an argument of the wrong type: 400 naming the field", "/agents/Support/status", { id: "seven" }, 400, "REQUEST_INVALID", /Support\.status\.input\.id must be an integer/],
    ["a missing argument: 400", "/agents/Support/status", {}, 400, "REQUEST_INVALID", /id/],
    ["a body that is not JSON: 400", "/agents/Support/status", "{not json", 400, "REQUEST_INVALID", /not JSON/],
    ["a body that is an array: 400", "/agents/Support/status", [7], 400, "REQUEST_INVALID", /must be a JSON object/],
    ["an unknown agent: 404", "/agents/Nobody/status", { id: 1 }, 404, "AGENT_NOT_FOUND", /No agent 'Nobody' is served here \(served: Support, Careful, Personal\)/],
    ["an unknown method: 404", "/agents/Support/nope", {}, 404, "AGENT_NOT_FOUND", /Agent 'Support' has no method 'nope'/],
    ["an agent with parameters called without them ($agent): 400", "/agents/Personal/hello", {}, 400, "REQUEST_INVALID", /Agent 'Personal' takes parameters \(user\)/],
    ["an unknown path: 404", "/v1/things", {}, 404, "AGENT_NOT_FOUND", /POST \/agents\/\{Agent\}\/\{method\}/],
    ["a write refused by policy: 403", "/agents/Careful/cancel", { id: 1 }, 403, "TOOL_PERMISSION_DENIED", /deny_write|cancel_order/],
    ["a tool past its timeout: 504", "/agents/Support/slow", { id: 1 }, 504, "TOOL_TIMEOUT", /slow_lookup/],
    ["a handler that throws: 500", "/agents/Support/broken", { id: 1 }, 500, "TOOL_HANDLER_ERROR", /database down/],
  ];
  for (const [name, path, body, status, code, message] of refusals) {
    test(name, async () => {
      const r = await call(path, body);
      expect(r.status).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.message).toMatch(message);
      expect(typeof r.body.error.retryable).toBe("boolean");
      expect(Object.keys(r.body.error)).toEqual(["code", "message", "retryable"]);
    });
  }

  test("a provider error: 502, retryable as the provider said", async () => {
    fake.script([{ status: 400, message: "bad request from the provider" }]);
    const r = await call("/agents/Support/judge", { text: "x" });
    expect(r.status).toBe(502);
    expect(r.body.error.code).toBe("PROVIDER_ERROR");
    expect(r.body.error.retryable).toBe(false);
  });

  test("a body over 1 MiB: 413, refused before it is read whole", async () => {
    const r = await call("/agents/Support/status", { id: 1, pad: "x".repeat(1_100_000) });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("REQUEST_INVALID");
  });

  test("GET is not served: 405 with Allow: POST", async () => {
    const res = await fetch(`${s.url}/agents/Support/status`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  test("no CORS without --cors: a browser's request gets no Access-Control-Allow-Origin", async () => {
    const res = await post(`${s.url}/agents/Support/status`, { id: 1 }, { origin: "https://evil.example" });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("issue #26 §4: one trace per request, exported while serving", () => {
  test("two requests are two traces, each with its invoke_agent root span, sent before the server stops", async () => {
    const rx = startReceiver();
    const traced = await serve(project(program), [], { ...env(), OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_BSP_SCHEDULE_DELAY: "100" });
    try {
      await post(`${traced.url}/agents/Support/status`, { id: 1 });
      await post(`${traced.url}/agents/Support/status`, { id: 2 });
      const deadline = Date.now() + 20_000;
      while (rx.spans.filter((x) => x.name === "invoke_agent Support").length < 2 && Date.now() < deadline) await Bun.sleep(50);
      const roots = rx.spans.filter((x) => x.name === "invoke_agent Support");
      expect(roots.length).toBe(2);
      expect(roots.every((r) => r.parentSpanId === "")).toBe(true);
      expect(roots[0].traceId).not.toBe(roots[1].traceId);
      const tools = rx.spans.filter((x) => x.name === "execute_tool lookup_order");
      expect(tools.map((t) => t.traceId).sort()).toEqual(roots.map((r) => r.traceId).sort());
      // A chat turn is a trace of its own too, its model request under its invoke_agent span.
      fake.script([{ text: "Hi." }]);
      await (await post(`${traced.url}/chat/Support`, { id: "traced", messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }] })).text();
      while (rx.spans.filter((x) => x.name === "invoke_agent Support").length < 3 && Date.now() < deadline) await Bun.sleep(50);
      const chatRoot = rx.spans.filter((x) => x.name === "invoke_agent Support")[2];
      expect(chatRoot.parentSpanId).toBe("");
      expect(new Set([...roots, chatRoot].map((r) => r.traceId)).size).toBe(3);
    } finally {
      await traced.stop();
      rx.stop();
    }
  });
});

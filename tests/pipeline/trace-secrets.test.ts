/**
 * Spec §14 + §8: the trace (`--trace FILE|-`) carries the fields of §14 for every tool call,
 * and secrets — credential values, `needs` values, API keys, LUMA_IDEMPOTENCY_KEY — never
 * appear in a trace, an error message, stdout or stderr, on the success path or on any
 * error path. Every secret is a unique canary string, searched for in everything the
 * process printed or wrote.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const CANARIES = {
  DB_PASSWORD: "canary-credential-7f3a",
  DB_USER: "canary-needs-user-91c2",
  DB_OPTIONS: '{"token":"canary-needs-json-55d0"}',
  DB_BAD_PORT: "canary-needs-port-0b8e",
  OPENAI_API_KEY: "canary-api-key-d41d",
  LUMA_IDEMPOTENCY_KEY: "canary-idempotency-key-e3b0",
};
const canaryTexts = [...Object.values(CANARIES), "canary-needs-json-55d0"];

const PROGRAM = `
schema Ok { ok: bool  user_length: int }
schema Database { user: string  port: int }
schema ToolError { code: string  message: string  retryable: bool  details?: any }

tool db_write(request_id: string, value: string) -> Ok {
  side_effects: "write"
  credential: "DB_PASSWORD"
  scope: "db:write"
  needs db: Database
  idempotent: true
  idempotency_key: request_id
}
tool db_read(id: string) -> Ok { credential: "DB_PASSWORD"  needs db: Database  error: ToolError }
tool bad_port(id: string) -> Ok { needs db_bad: Database }
tool bad_type(id: string) -> Ok { needs db_typed: Database }
tool other_secret(id: string) -> Ok { credential: "OTHER_SECRET" }
tool hang(id: string) -> Ok { timeout: 50  needs db: Database }
tool wrong_output(id: string) -> Ok { needs db: Database }

agent Worker {
  tools: [db_write, db_read, bad_port, bad_type, other_secret, hang, wrong_output]
  tool_scopes: ["db:write"]
  fn attempt(label: string, call: string) -> any {
    try {
      if call == "write" { r = tool db_write({ request_id: "r-1", value: "v" }) }
      if call == "write-again" { r = tool db_write({ request_id: "r-1", value: "v" }) }
      if call == "conflict" { r = tool db_write({ request_id: "r-1", value: "other" }) }
      if call == "read-error" { r = tool db_read({ id: "x" }) }
      if call == "bad-port" { r = tool bad_port({ id: "x" }) }
      if call == "bad-type" { r = tool bad_type({ id: "x" }) }
      if call == "no-credential" { r = tool other_secret({ id: "x" }) }
      if call == "timeout" { r = tool hang({ id: "x" }) }
      if call == "wrong-output" { r = tool wrong_output({ id: "x" }) }
      if r != null { print(label, "ok", r.user_length) }
    } catch e {
      print(label, e.code, e.message, e.details)
    }
  }
}
agent Guarded {
  tools: [db_write]
  tool_policy: "approval"
  fn go() -> any { tool db_write({ request_id: "r-2", value: "v" }) }
}

for call in ["write", "write-again", "conflict", "read-error", "bad-port", "bad-type", "no-credential", "timeout", "wrong-output"] {
  Worker.attempt(call, call)
}
Guarded.go()
`;

const TOOLS = `
import { LumaToolError } from "luma";
const ok = (_i: unknown, _s: unknown, needs: any) => ({ ok: true, user_length: needs.db.user.length });
export const lumaTools = {
  db_write: ok,
  db_read: (_i: unknown, _s: unknown, needs: any) => {
    throw new LumaToolError({ code: "DB_DOWN", message: "database unavailable", retryable: false, details: { port: needs.db.port } });
  },
  bad_port: ok,
  bad_type: ok,
  other_secret: () => ({ ok: true, user_length: 0 }),
  hang: (_i: unknown, _s: AbortSignal) => new Promise(() => {}),
  wrong_output: () => ({ ok: "yes", user_length: "many" }),
};
`;

const CONFIG = {
  tool_modules: ["./tools.ts"],
  idempotency_store: { backend: "file", path: "idem.json", encryption: "aes-256-gcm" },
  tool_contexts: {
    db: {
      user: { env: "DB_USER" },
      password: { env: "DB_PASSWORD" },
      port: { env: "DB_PORT", parse: "integer" },
      options: { env: "DB_OPTIONS", parse: "json" },
    },
    db_bad: { user: { env: "DB_USER" }, port: { env: "DB_BAD_PORT", parse: "integer" } },
    db_typed: { user: { env: "DB_USER" }, port: { env: "DB_USER" } },
  },
};

const run = (traceTarget: string) => {
  const dir = mkdtempSync(join(tmpdir(), "luma-canary-"));
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify(CONFIG));
  const r = runLuma(["main.luma", "--trace", traceTarget], { cwd: dir, env: { ...CANARIES, DB_PORT: "5432" } });
  return { dir, ...r };
};

/** Every file the run left in its directory, except the inputs the test wrote itself. */
const writtenFiles = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!["main.luma", "tools.ts", "luma.config.json"].includes(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
};

const expectNoCanary = (where: string, text: string) => {
  for (const canary of canaryTexts) {
    if (text.includes(canary)) throw new Error(`secret ${canary} leaked into ${where}:\n${text}`);
  }
};

describe("§8/§14 secrets never reach a trace, a message, stdout or stderr", () => {
  test("every error path, with the trace in a file: no canary anywhere the process wrote", () => {
    const r = run("trace.jsonl");
    expect(r.exitCode).toBe(1); // Guarded.go() is refused and not caught
    expectNoCanary("stdout", r.stdout);
    expectNoCanary("stderr", r.stderr);
    for (const file of writtenFiles(r.dir)) expectNoCanary(file, readFileSync(file, "latin1"));

    // Each path was really taken (so the absence of a canary means something).
    expect(r.stdout.split("\n").map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual([
      "write ok",
      "write-again ok",
      "conflict TOOL_IDEMPOTENCY_CONFLICT",
      "read-error DB_DOWN",
      "bad-port TOOL_CONTEXT_INVALID",
      "bad-type TOOL_CONTEXT_INVALID",
      "no-credential TOOL_PERMISSION_DENIED",
      "timeout TOOL_TIMEOUT",
      "wrong-output TOOL_OUTPUT_INVALID",
      "",
    ]);
    expect(r.stdout).toContain("bad-port TOOL_CONTEXT_INVALID Context 'db_bad' field 'port': environment variable DB_BAD_PORT is not a valid integer.");
    expect(r.stderr).toStartWith("Error: [TOOL_PERMISSION_DENIED] Tool 'db_write' needs approval");
  });

  test("the trace has one tool.call event per call with every §14 field, and --trace - sends it to stderr", () => {
    const file = run("trace.jsonl");
    const events = readFileSync(join(file.dir, "trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const toStderr = run("-");
    const stderrEvents = toStderr.stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    expectNoCanary("stderr trace", toStderr.stderr);
    expect(stderrEvents.map((e) => [e.tool, e.outcome, e.code])).toEqual(events.map((e) => [e.tool, e.outcome, e.code]));

    const calls = events.filter((e) => e.event === "tool.call");
    expect(calls.map((e) => [e.tool, e.agent, e.outcome, e.code, e.attempts, e.idempotent_replay])).toEqual([
      ["db_write", "Worker", "ok", null, 1, false],
      ["db_write", "Worker", "ok", null, 0, true],
      ["db_write", "Worker", "error", "TOOL_IDEMPOTENCY_CONFLICT", 0, false],
      ["db_read", "Worker", "error", "DB_DOWN", 1, false],
      ["bad_port", "Worker", "error", "TOOL_CONTEXT_INVALID", 0, false],
      ["bad_type", "Worker", "error", "TOOL_CONTEXT_INVALID", 0, false],
      ["other_secret", "Worker", "error", "TOOL_PERMISSION_DENIED", 0, false],
      ["hang", "Worker", "error", "TOOL_TIMEOUT", 1, false],
      ["wrong_output", "Worker", "error", "TOOL_OUTPUT_INVALID", 1, false],
      ["db_write", "Guarded", "error", "TOOL_PERMISSION_DENIED", 0, false],
    ]);
    for (const e of calls) {
      expect(typeof e.ts).toBe("string");
      expect(e.mode).toBe("direct");
      expect(typeof e.duration_ms).toBe("number");
      expect(e.duration_ms).toBeGreaterThanOrEqual(0);
      expect([e.cache_hit, e.single_flight]).toEqual([false, false]);
      expect(e.retryable === null || typeof e.retryable === "boolean").toBe(true);
    }
    expect(calls.find((e) => e.code === "TOOL_TIMEOUT").retryable).toBe(true);
  });
});

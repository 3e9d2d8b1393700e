/**
 * `luma mcp` against a hostile client (docs/mcp.md, "Serving"): raw JSON-RPC lines on the
 * real binary's stdin — no SDK client, so the test decides the moment the process is
 * signalled or hung up on. The served tool is an idempotent write with a SQLite claim
 * store, so "the claim was released" is seen as a second server running the same key at
 * once. The waits are for files the handler writes, never for a duration.
 */
import { describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";
import { connectHttp, connectLuma, startLumaHttp, tempDir, textJson, until } from "./mcp-harness";

setDefaultTimeout(30_000);

// MODE=quick answers at once; MODE=exit calls process.exit(3); MODE=chatty console.logs
// a debug line and a forged answer first; otherwise the handler writes `started` and waits for its
// signal (writing `aborted`, then rejecting), or forever under MODE=ignore.
const TOOLS = `import { writeFileSync } from "node:fs";
export const charge = (input, signal) => {
  if (process.env.MODE === "quick") return { charged: input.id };
  if (process.env.MODE === "exit") process.exit(3);
  if (process.env.MODE === "chatty") {
    console.log("debug line");
    console.log('{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"charged":"forged"}}}');
    return { charged: input.id };
  }
  writeFileSync(import.meta.dir + "/started", "1");
  return new Promise((resolve, reject) => {
    signal.addEventListener("abort", () => {
      writeFileSync(import.meta.dir + "/aborted", "1");
      if (process.env.MODE !== "ignore") reject(signal.reason);
    });
  });
};
`;
const APP = `schema Charge { charged: string }
tool charge(id: string) -> Charge { side_effects: "write"  idempotent: true  idempotency_key: id  timeout: 600000 }
`;

function project(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  writeFileSync(join(dir, "app.luma"), APP);
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"], idempotency_store: { backend: "sqlite", path: "claims.sqlite" } }));
  return dir;
}

const INIT = [
  { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];
const CHARGE = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "charge", arguments: { id: "req-1" } } };

function serve(dir: string, mode: string, call: unknown = CHARGE) {
  const proc = Bun.spawn([ensureBinary(), "mcp", "app.luma", "--trace", "trace.jsonl"], {
    cwd: dir,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LUMA_NO_CACHE: "1", NO_COLOR: "1", MODE: mode },
  });
  for (const m of [...INIT, call]) proc.stdin.write(`${JSON.stringify(m)}\n`);
  proc.stdin.flush();
  let stdout = "";
  const reading = (async () => {
    for await (const chunk of proc.stdout) stdout += new TextDecoder().decode(chunk);
  })();
  const stderr = new Response(proc.stderr).text();
  return {
    proc,
    stdout: () => stdout,
    ended: async () => ({ exitCode: await proc.exited, stderr: await stderr, stdout: await reading.then(() => stdout) }),
  };
}

const traceCalls = (dir: string) =>
  readFileSync(join(dir, "trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.event === "tool.call");

/** The claim of req-1 was released: a new server runs the same key at once, with a success. */
async function rerunSucceeds(dir: string) {
  const again = serve(dir, "quick");
  await until(() => again.stdout().includes('"id":1'));
  again.proc.stdin.end();
  const line = again.stdout().split("\n").find((l) => l.includes('"id":1'))!;
  expect(textJson(JSON.parse(line).result)).toEqual({ charged: "req-1" });
  expect((await again.ended()).exitCode).toBe(0);
}

describe("luma mcp over stdio: stopping mid-call goes through the run's lifecycle", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} mid-call aborts the handler's AbortSignal, writes the call's trace event, releases its claim, and exits 0`, async () => {
      const dir = project();
      const s = serve(dir, "wait");
      await until(() => existsSync(join(dir, "started")));
      s.proc.kill(signal);
      const r = await s.ended();
      expect(existsSync(join(dir, "aborted"))).toBe(true);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe("");
      expect(traceCalls(dir).map((e) => [e.tool, e.outcome])).toEqual([["charge", "error"]]);
      await rerunSucceeds(dir);
    });
  }

  // Its claim stays held (until its lease) while the handler has not settled: the side effect
  // may still be under way (timed-out-claim.ts), so no rerun is tried here.
  test("the client closing stdin mid-call: a handler that ignores its signal is stopped, and its trace event is still written", async () => {
    const dir = project();
    const s = serve(dir, "ignore");
    await until(() => existsSync(join(dir, "started")));
    s.proc.stdin.end();
    const r = await s.ended();
    expect(r.exitCode).toBe(0);
    expect(existsSync(join(dir, "aborted"))).toBe(true);
    expect(traceCalls(dir).map((e) => [e.tool, e.outcome, e.code])).toEqual([["charge", "error", "RUNTIME_ERROR"]]);
  });
});

describe("luma mcp --http: stopping mid-call goes through the run's lifecycle", () => {
  test("SIGTERM mid-call: a handler that ignores its signal is stopped, its trace event written, and the server exits 0", async () => {
    const dir = project();
    const server = await startLumaHttp([join(dir, "app.luma"), "--trace", join(dir, "trace.jsonl")], { MODE: "ignore" });
    const client = await connectHttp(server.url);
    const call = client.callTool({ name: "charge", arguments: { id: "req-1" } }).catch(() => "no answer");
    await until(() => existsSync(join(dir, "started")));
    expect(await server.stop()).toBe(0);
    expect(existsSync(join(dir, "aborted"))).toBe(true);
    expect(traceCalls(dir).map((e) => [e.tool, e.outcome, e.code])).toEqual([["charge", "error", "RUNTIME_ERROR"]]);
    await client.close();
    await call;
  });
});

describe("luma mcp over stdio: oversized messages", () => {
  test("a 12 MB request is read and answered (the SDK's 10 MiB default closed the connection and exited 0, unanswered)", async () => {
    const dir = project();
    const s = serve(dir, "quick", { ...CHARGE, params: { name: "charge", arguments: { id: "big", pad: "x".repeat(12_000_000) } } });
    await until(() => s.stdout().includes('"id":1'));
    s.proc.stdin.end();
    const answer = JSON.parse(s.stdout().split("\n").find((l) => l.includes('"id":1'))!);
    expect(textJson(answer.result).code).toBe("TOOL_INPUT_INVALID");
    expect((await s.ended()).exitCode).toBe(0);
  });

  test("a request over 64 MiB ends the server with exit 1 and a message naming the limit, not a silent exit 0", async () => {
    const dir = project();
    const huge = { ...CHARGE, params: { name: "charge", arguments: { id: "x".repeat(70_000_000) } } };
    // From a file, not a pipe: the server closes its stdin while this is still being written.
    writeFileSync(join(dir, "in.jsonl"), [...INIT, huge].map((m) => `${JSON.stringify(m)}\n`).join(""));
    const proc = Bun.spawn([ensureBinary(), "mcp", "app.luma"], {
      cwd: dir,
      stdin: Bun.file(join(dir, "in.jsonl")),
      stdout: "ignore",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", MODE: "quick" },
    });
    expect(await new Response(proc.stderr).text()).toBe(
      "Error: [RUNTIME_ERROR] luma mcp: the client sent a message larger than 64 MiB (the limit of one stdio message); the connection was closed.\n",
    );
    expect(await proc.exited).toBe(1);
  });
});

describe("luma mcp over stdio: the client closing its end of stdout", () => {
  test("the next answer's EPIPE ends the server quietly with 141, as a run's closed stdout does — no uncaught error, no stack trace", async () => {
    const dir = project();
    const proc = Bun.spawn([ensureBinary(), "mcp", "app.luma"], {
      cwd: dir,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", MODE: "quick" },
    });
    proc.stdin.write(`${JSON.stringify(INIT[0])}\n`);
    proc.stdin.flush();
    const reader = proc.stdout.getReader();
    await reader.read(); // the initialize answer: the server is serving
    await reader.cancel();
    proc.stdin.write(`${JSON.stringify(INIT[1])}\n${JSON.stringify(CHARGE)}\n`);
    proc.stdin.flush();
    expect(await proc.exited).toBe(141);
    expect(await new Response(proc.stderr).text()).toBe("");
  });
});

describe("luma mcp over stdio: stdout is the protocol's alone", () => {
  test("a handler's console.log goes to stderr: a line of JSON on stdout cannot pass for the call's answer", async () => {
    const dir = project();
    const s = serve(dir, "chatty");
    await until(() => s.stdout().includes('"id":1'));
    s.proc.stdin.end();
    const r = await s.ended();
    const answers = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(answers.filter((m) => m.id === 1).map((m) => m.result.structuredContent)).toEqual([{ charged: "req-1" }]);
    expect(r.stderr).toBe(`debug line\n{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"charged":"forged"}}}\n`);
    expect(r.exitCode).toBe(0);
  });
});

describe("luma mcp: a tool module cannot end the server", () => {
  test("a handler's process.exit() fails its call with TOOL_HANDLER_ERROR; the server serves on and exits 0 when the client leaves", async () => {
    const dir = project();
    const s = serve(dir, "exit");
    await until(() => s.stdout().includes('"id":1'));
    const answer = JSON.parse(s.stdout().split("\n").find((l) => l.includes('"id":1'))!);
    expect(textJson(answer.result)).toEqual({ code: "TOOL_HANDLER_ERROR", message: "Tool 'charge' called process.exit(3): a tool handler cannot end the run.", retryable: false });
    s.proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    s.proc.stdin.flush();
    await until(() => s.stdout().includes('"id":2'));
    s.proc.stdin.end();
    expect((await s.ended()).exitCode).toBe(0);
  });
});

describe("luma mcp over stdio: every request gets an answer, a broken one its JSON-RPC error", () => {
  test("not JSON is -32700, a batch -32600, params that are not an object -32602 with the request's id; the server serves on (each was dropped unanswered)", async () => {
    const dir = project();
    const s = serve(dir, "quick");
    await until(() => s.stdout().includes('"id":1'));
    const lines = [
      "not json",
      JSON.stringify([{ jsonrpc: "2.0", id: 5, method: "tools/list" }]),
      JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/call", params: ["charge", { id: "req-2" }] }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: [1] }),
      "42",
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    ];
    for (const line of lines) s.proc.stdin.write(`${line}\n`);
    s.proc.stdin.flush();
    await until(() => s.stdout().includes('"id":7'));
    s.proc.stdin.end();
    const r = await s.ended();
    const answers = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const errors = answers.filter((m) => m.error !== undefined).map((m) => [m.id, m.error.code]);
    expect(errors).toEqual([[null, -32700], [null, -32600], [6, -32602], [null, -32600]]);
    expect(answers.find((m) => m.id === 7).result.tools.map((t: { name: string }) => t.name)).toEqual(["charge"]);
    // The batch's request and the call with array params never ran.
    expect(answers.filter((m) => m.id === 5)).toEqual([]);
    expect(traceCalls(dir).map((e) => e.tool)).toEqual(["charge"]);
    expect(r.exitCode).toBe(0);
  });
});

describe("luma mcp: an approval nobody answers", () => {
  test("the call is refused with TOOL_PERMISSION_DENIED when the tool's timeout passes (it was a RUNTIME_ERROR at the SDK's 60 s); the handler never runs", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tools.ts"), `import { writeFileSync } from "node:fs";\nexport const save = (input) => { writeFileSync(import.meta.dir + "/ran", "1"); return { id: input.text }; };\n`);
    writeFileSync(join(dir, "app.luma"), `schema Note { id: string }
tool save(text: string) -> Note { side_effects: "write"  timeout: 1000 }
agent Careful {
  tools: [save]
  tool_policy: "approval"
}
`);
    let asked = 0;
    const session = await connectLuma([join(dir, "app.luma"), "--agent", "Careful", "--tool-module", join(dir, "tools.ts")], {
      onElicit: () => {
        asked++;
        return new Promise(() => {}); // the user never decides
      },
    });
    try {
      const result = await session.client.callTool({ name: "save", arguments: { text: "a" } });
      expect(result.isError).toBe(true);
      expect(textJson(result)).toEqual({
        code: "TOOL_PERMISSION_DENIED",
        message: "Tool 'save' was not approved: the MCP client did not answer the approval request within 1000 ms (the tool's timeout).",
        retryable: false,
      });
      expect(asked).toBe(1);
      expect(existsSync(join(dir, "ran"))).toBe(false);
    } finally {
      await session.close();
    }
  });
});

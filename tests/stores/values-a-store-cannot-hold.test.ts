/**
 * Spec §9 step 11 / §11 through `luma` itself: a tool output that is not JSON data (a BigInt,
 * a cycle, NaN… in an `any` field) is TOOL_OUTPUT_INVALID naming its path, and a thrown
 * LumaToolError whose `details` are not JSON data is TOOL_ERROR_INVALID — the same message
 * on every backend, the memory store included, and never a raw `JSON.stringify` error
 * after the handler ran. The handler's side-effect log counts runs outside the store.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";
import { isolatedUrl } from "./backends/support/isolated-store-url";
import { missingService } from "./conformance/service-urls";
import { freshDir } from "./support/store-fixture";

const TOOLS = `
import { appendFileSync } from "node:fs";
import { LumaToolError } from "luma";
class Point { constructor(public x = 1) {} }
const made = (kind: string): unknown => {
  switch (kind) {
    case "bigint": return 10n;
    case "cycle": { const o: any = { a: 1 }; o.self = o; return o; }
    case "deep-cycle": { const o: any = { list: [{}] }; o.list[0].up = o; return o; }
    case "function": return () => 1;
    case "symbol": return Symbol("s");
    case "gap": return [1, undefined];
    case "hole": return [1, , 3];
    case "nan": return NaN;
    case "infinity": return -Infinity;
    case "date": return new Date(0);
    case "map": return new Map([[1, 2]]);
    case "instance": return new Point();
    case "deep": { let v: unknown = 1; for (let i = 0; i < 200000; i++) v = [v]; return v; }
    case "shared": { const leaf = { n: 1 }; let v: any = leaf; for (let i = 0; i < 10; i++) v = [v, v]; return { leaf, v }; }
    case "dag": { let v: any = { n: 1 }; for (let i = 0; i < 60; i++) v = [v, v]; return v; }
    case "absent": return { a: undefined, b: 2 };
    default: return "plain";
  }
};
export const lumaTools = {
  t: (input: { id: string; kind: string; throws: boolean }) => {
    appendFileSync(process.env.EFFECTS_LOG!, input.id + "\\n");
    const data = made(input.kind);
    if (input.throws) throw new LumaToolError({ code: "X_FAIL", message: "boom", retryable: true, details: data });
    return { id: input.id, data };
  },
};
`;

const PROGRAM = `
schema Out { id: string  data: any }
tool t(id: string, kind: string, throws: bool) -> Out {
  side_effects: "write"
  idempotent: true
  idempotency_key: id
  retries: 2
}
try {
  r = tool t({ id: args[0], kind: args[1], throws: args[2] == "throws" })
  print("ok", r)
} catch e {
  print(e.code, e.retryable, e.message, e.details)
}
`;

type Backend = "memory" | "file" | "sqlite" | "postgres" | "redis";
const STORE: Record<Backend, object | undefined> = {
  memory: undefined,
  file: { backend: "file", path: "state/idem.json" },
  sqlite: { backend: "sqlite", path: "state/idem.sqlite" },
  postgres: { backend: "postgres", url_env: "LUMA_STORE_URL" },
  redis: { backend: "redis", url_env: "LUMA_STORE_URL" },
};

const project = async (backend: Backend) => {
  const dir = freshDir();
  const store = STORE[backend];
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"], ...(store ? { idempotency_store: store } : {}) }));
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  writeFileSync(join(dir, "program.luma"), PROGRAM);
  const effects = join(dir, "effects.log");
  const { url, cleanup } = backend === "memory" ? { url: undefined, cleanup: async () => {} } : await isolatedUrl(backend);
  return {
    run: (args: string[]) =>
      runLuma(["program.luma", ...args], { cwd: dir, env: { EFFECTS_LOG: effects, ...(url ? { LUMA_STORE_URL: url } : {}) } }),
    runs: () => (existsSync(effects) ? readFileSync(effects, "utf8").split("\n").filter(Boolean).length : 0),
    cleanup,
  };
};

/** kind → what the message says after "<path> must be JSON data, got". */
const OUTPUTS: [string, string][] = [
  ["bigint", "t.output.data must be JSON data, got a BigInt."],
  ["cycle", "t.output.data.self must be JSON data, got a cycle (back to t.output.data)."],
  ["deep-cycle", "t.output.data.list[0].up must be JSON data, got a cycle (back to t.output.data)."],
  ["function", "t.output.data must be JSON data, got a function."],
  ["symbol", "t.output.data must be JSON data, got a symbol."],
  ["gap", "t.output.data[1] must be JSON data, got nothing (undefined)."],
  ["hole", "t.output.data[1] must be JSON data, got nothing (undefined)."],
  ["nan", "t.output.data must be JSON data, got NaN."],
  ["infinity", "t.output.data must be JSON data, got -Infinity."],
  ["date", "t.output.data must be JSON data, got a Date."],
  ["map", "t.output.data must be JSON data, got a Map."],
  ["instance", "t.output.data must be JSON data, got an instance of Point."],
  ["deep", "t.output.data must be JSON data, got nesting deeper than 1000 levels."],
  ["dag", "t.output.data must be JSON data, got more than 1000000 objects and arrays once shared ones are written out."],
];

describe("§9 step 11: a tool output must be JSON data (TOOL_OUTPUT_INVALID naming the path)", () => {
  test.each(OUTPUTS)("memory store, %s: TOOL_OUTPUT_INVALID with the path, not retried, catchable", async (kind, message) => {
    const p = await project("memory");
    const r = p.run(["k1", kind, "returns"]);
    expect(r).toEqual({ exitCode: 0, stdout: `TOOL_OUTPUT_INVALID false ${message} {"issues":[{"path":"${message.split(" ")[0]}","rule":"json","message":"${message}","severity":"hard"}]}\n`, stderr: "" });
    expect(p.runs()).toBe(1);
  });

  test("values JSON holds the same way pass: an undefined field is absent, a shared (not cyclic) object is fine, replayed equal", async () => {
    const p = await project("file");
    expect(p.run(["k1", "absent", "returns"]).stdout).toBe('ok {"id":"k1","data":{"b":2}}\n');
    expect(p.run(["k1", "absent", "returns"]).stdout).toBe('ok {"id":"k1","data":{"b":2}}\n');
    expect(p.runs()).toBe(1); // replayed from the store, equal to the first result
    let shared: unknown = { n: 1 };
    for (let i = 0; i < 10; i++) shared = [shared, shared];
    expect(p.run(["k2", "shared", "returns"]).stdout).toBe(`ok ${JSON.stringify({ id: "k2", data: { leaf: { n: 1 }, v: shared } })}\n`);
  });

  test("uncaught: Error: [TOOL_OUTPUT_INVALID] … exit 1, and --trace records the outcome instead of crashing", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"] }));
    writeFileSync(join(dir, "tools.ts"), TOOLS);
    writeFileSync(join(dir, "program.luma"), 'schema Out { id: string  data: any }\ntool t(id: string, kind: string, throws: bool) -> Out {}\nr = tool t({ id: "a", kind: "cycle", throws: false })\n');
    const r = runLuma(["program.luma", "--trace", "trace.jsonl"], { cwd: dir, env: { EFFECTS_LOG: join(dir, "fx") } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      "Error: [TOOL_OUTPUT_INVALID] t.output.data.self must be JSON data, got a cycle (back to t.output.data).\n" +
        '  --> program.luma:3:5\n  3 | r = tool t({ id: "a", kind: "cycle", throws: false })\n    |     ' + "^".repeat(49) + "\n",
    );
    expect(JSON.parse(readFileSync(join(dir, "trace.jsonl"), "utf8").trim())).toMatchObject({ tool: "t", outcome: "error", code: "TOOL_OUTPUT_INVALID" });
  });
});

describe("§9 Errors: a thrown error's details must be JSON data (TOOL_ERROR_INVALID)", () => {
  test.each([
    ["bigint", "t.error.details must be JSON data, got a BigInt."],
    ["cycle", "t.error.details.self must be JSON data, got a cycle (back to t.error.details)."],
    ["map", "t.error.details must be JSON data, got a Map."],
  ])("details %s: TOOL_ERROR_INVALID, not retryable (the handler ran once), the thrown code kept", async (kind, message) => {
    const p = await project("memory");
    const r = p.run(["k1", kind, "throws"]);
    expect(r).toEqual({ exitCode: 0, stdout: `TOOL_ERROR_INVALID false Tool 't' threw an error that cannot be passed on: ${message} {"code":"X_FAIL"}\n`, stderr: "" });
    expect(p.runs()).toBe(1);
  });

  test("JSON details reach the catch variable unchanged", async () => {
    const p = await project("memory");
    expect(p.run(["k1", "absent", "throws"]).stdout).toBe('X_FAIL true boom {"b":2}\n');
    expect(p.runs()).toBe(3); // retryable: retried twice
  });
});

const BACKENDS: Backend[] = ["file", "sqlite", "postgres", "redis"];
describe("§11 the rule is the same on every backend", () => {
  for (const backend of BACKENDS) {
    const reason = backend === "postgres" ? missingService("LUMA_TEST_PG_URL") : backend === "redis" ? missingService("LUMA_TEST_REDIS_URL") : undefined;
    const run = reason === undefined ? test : test.skip;
    run(`${backend}: the memory store's message for a BigInt and a cycle; nothing stored, the key free to run again`, async () => {
      const p = await project(backend);
      try {
        for (const [kind, message] of OUTPUTS.filter(([k]) => k === "bigint" || k === "cycle")) {
          const r = p.run([`k-${kind}`, kind, "returns"]);
          expect(r.exitCode).toBe(0);
          expect(r.stderr).toBe("");
          expect(r.stdout).toStartWith(`TOOL_OUTPUT_INVALID false ${message} `);
        }
        expect(p.runs()).toBe(2);
        expect(p.run(["k-bigint", "plain", "returns"]).stdout).toBe('ok {"id":"k-bigint","data":"plain"}\n');
        expect(p.runs()).toBe(3);
      } finally {
        await p.cleanup();
      }
    }, 30_000);
  }
});

describe("§9 step 11: JSON data from another realm", () => {
  test("a plain object made in a vm context (a strict-policy module's realm) is JSON data; a Map from there is not", async () => {
    const { runInNewContext } = await import("node:vm");
    const { jsonDataIssue } = await import("../../src/schema/json-data");
    expect(jsonDataIssue(runInNewContext('({ id: "a", list: [1, { b: null }], o: Object.create(null) })'), "t.output")).toBeUndefined();
    expect(jsonDataIssue(runInNewContext("({ m: new Map() })"), "t.output")?.message).toBe("t.output.m must be JSON data, got a Map.");
  });
});

describe("§7 native tool calling: a result that is not JSON data is a clear tool error, never a crash", () => {
  test("the model's call of a tool returning a BigInt: TOOL_OUTPUT_INVALID (not retryable, so the ask fails with it), traced", async () => {
    const { fakeProvider } = await import("../ask/ask-harness");
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "t", args: { id: "m1", kind: "bigint", throws: false } }] }, { json: { note: "recovered" } }]);
    const dir = freshDir();
    writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"] }));
    writeFileSync(join(dir, "tools.ts"), TOOLS);
    writeFileSync(
      join(dir, "program.luma"),
      `model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Out { id: string  data: any }
schema Final { note: string }
tool t(id: string, kind: string, throws: bool) -> Out {}
agent A {
  model: M
  tools: [t]
  fn run() -> Final { ask "Call t." -> Final }
}
print(A.run().note)
`,
    );
    const p = Bun.spawn([ensureBinary(), "program.luma", "--trace", "trace.jsonl"], {
      cwd: dir,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: fake.baseUrl("openai"), EFFECTS_LOG: join(dir, "fx") },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(p.exitCode).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^Error: \[TOOL_OUTPUT_INVALID\] t\.output\.data must be JSON data, got a BigInt\.\n {2}--> program\.luma:8:23\n/);
    expect(fake.requests.length).toBe(1); // spec §7: a retryable: false tool error stops the ask at once
    const events = readFileSync(join(dir, "trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(events.find((e) => e.event === "tool.call")).toMatchObject({ tool: "t", mode: "native", outcome: "error", code: "TOOL_OUTPUT_INVALID" });
  });
});

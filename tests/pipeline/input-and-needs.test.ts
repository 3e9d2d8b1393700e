/** Spec §9 steps 6–7: input validation, needs resolution (§8 `needs` and `tool_contexts`). */
import { describe, expect, test } from "bun:test";
import type { ToolContextsConfig } from "../../src/runtime/tools/pipeline";
import { failure, harness } from "./harness";

const SOURCE = `
schema R { result: float }
schema Invoice { invoice_number: string }
schema Receipt { reference: string }
schema Document = Invoice | Receipt tagged by kind
schema Database { user: string  port: int }
schema Flags { verbose: bool  ratio: float  meta: any }

tool calc(
  a: float @range(0, 100),
  b: float @range(0, 100) @severity("soft"),
  op?: enum["add", "mul"] @default("add")
) -> R {}
tool file_doc(doc: Document) -> R {}
tool db_write(table: string) -> R {
  needs db: Database
  side_effects: "write"
}
tool flagged(x: int) -> R {
  needs flags: Flags
}
agent Open { tools: [db_write] }
agent OnlyDb { tools: [db_write] tool_contexts: ["db"] }
agent NoContexts { tools: [db_write] tool_contexts: [] }
`;

const CANARY = "CANARY-9f3b2-secret";

const DB_CONTEXT: ToolContextsConfig = {
  db: {
    user: { env: "DB_USER" },
    password: { env: "DB_PASSWORD" },
    port: { env: "DB_PORT", parse: "integer" },
  },
  flags: {
    verbose: { env: "F_VERBOSE", parse: "boolean" },
    ratio: { env: "F_RATIO", parse: "number" },
    meta: { env: "F_META", parse: "json" },
  },
};

const DB_ENV = { DB_USER: "ada", DB_PASSWORD: CANARY, DB_PORT: "5432" };

const recordingNeeds = () => {
  const seen: unknown[] = [];
  const handlers = {
    db_write: (_i: unknown, _s: unknown, needs: unknown) => (seen.push(needs), { result: 1 }),
    flagged: (_i: unknown, _s: unknown, needs: unknown) => (seen.push(needs), { result: 2 }),
  };
  return { seen, handlers };
};

/** No part of an error — message, details, trace — may hold the secret. */
const expectNoLeak = (e: unknown, events: unknown[]) => {
  const err = e as { message: string; details?: unknown };
  expect(err.message).not.toContain(CANARY);
  expect(JSON.stringify(err.details ?? null)).not.toContain(CANARY);
  expect(JSON.stringify(events)).not.toContain(CANARY);
};

describe("§9 step 6 input validation", () => {
  test("an invalid input is TOOL_INPUT_INVALID carrying the schema's issue message", async () => {
    const h = harness(SOURCE, { handlers: { calc: () => ({ result: 0 }) } });
    const e = await failure(h.call("calc", { a: 500, b: 1 }));
    expect(e.code).toBe("TOOL_INPUT_INVALID");
    expect(e.message).toBe("calc.input.a must be <= 100 (@range).");
  });

  test("a soft rule on an input stays hard", async () => {
    const h = harness(SOURCE, { handlers: { calc: () => ({ result: 0 }) } });
    const e = await failure(h.call("calc", { a: 1, b: 500 }));
    expect(e.code).toBe("TOOL_INPUT_INVALID");
    expect(e.message).toContain("calc.input.b");
  });

  test("the handler receives the validated value with defaults filled in, not the caller's object", async () => {
    const seen: unknown[] = [];
    const h = harness(SOURCE, { handlers: { calc: (i: any) => (seen.push(i), { result: i.a + i.b }) } });
    const input = { a: 1, b: 2 };
    await h.call("calc", input);
    expect(seen).toEqual([{ a: 1, b: 2, op: "add" }]);
    expect(input).toEqual({ a: 1, b: 2 });
  });

  test("a tagged-union parameter arrives with its discriminator written", async () => {
    const seen: any[] = [];
    const h = harness(SOURCE, { handlers: { file_doc: (i: any) => (seen.push(i), { result: 0 }) } });
    await h.call("file_doc", { doc: { reference: "r-1" } });
    expect(seen[0].doc.kind).toBe("Receipt");
  });

  test("step order: invalid input wins over a needs failure", async () => {
    const h = harness(SOURCE, { ...recordingNeeds() });
    expect((await failure(h.call("db_write", { table: 3 }))).code).toBe("TOOL_INPUT_INVALID");
  });
});

describe("§9 step 7 needs resolution", () => {
  test("the context is built from env with parse kinds; fields the type does not declare pass through", async () => {
    const { seen, handlers } = recordingNeeds();
    const h = harness(SOURCE, { handlers, contexts: DB_CONTEXT, env: DB_ENV });
    await h.call("db_write", { table: "t" });
    expect(seen).toEqual([{ db: { user: "ada", password: CANARY, port: 5432 } }]);
    expect(JSON.stringify(h.events)).not.toContain(CANARY);
  });

  test("parse kinds boolean, number and json", async () => {
    const { seen, handlers } = recordingNeeds();
    const env = { F_VERBOSE: "false", F_RATIO: "0.25", F_META: '{"a":[1,2]}' };
    const h = harness(SOURCE, { handlers, contexts: DB_CONTEXT, env });
    await h.call("flagged", { x: 1 });
    expect(seen).toEqual([{ flags: { verbose: false, ratio: 0.25, meta: { a: [1, 2] } } }]);
  });

  const badParses: [string, Record<string, string>, string][] = [
    ["integer rejects a fraction", { ...DB_ENV, DB_PORT: "54.5" }, "DB_PORT"],
    ["integer rejects text (the secret itself)", { ...DB_ENV, DB_PORT: CANARY }, "DB_PORT"],
  ];
  for (const [name, env, variable] of badParses) {
    test(`a failed parse is TOOL_CONTEXT_INVALID naming context, field and variable: ${name}`, async () => {
      const h = harness(SOURCE, { ...recordingNeeds(), contexts: DB_CONTEXT, env });
      const e = await failure(h.call("db_write", { table: "t" }));
      expect(e.code).toBe("TOOL_CONTEXT_INVALID");
      expect(e.message).toBe(`Context 'db' field 'port': environment variable ${variable} is not a valid integer.`);
      expectNoLeak(e, h.events);
    });
  }

  const flagParses: [string, Record<string, string>, string][] = [
    ["boolean accepts only true/false", { F_VERBOSE: "yes", F_RATIO: "1", F_META: "{}" }, "F_VERBOSE"],
    ["number must be finite", { F_VERBOSE: "true", F_RATIO: "Infinity", F_META: "{}" }, "F_RATIO"],
    ["number rejects empty text", { F_VERBOSE: "true", F_RATIO: " ", F_META: "{}" }, "F_RATIO"],
    ["json must parse (the secret inside is not echoed)", { F_VERBOSE: "true", F_RATIO: "1", F_META: `{"k":"${CANARY}"` }, "F_META"],
  ];
  for (const [name, env, variable] of flagParses) {
    test(`parse kind: ${name}`, async () => {
      const h = harness(SOURCE, { ...recordingNeeds(), contexts: DB_CONTEXT, env });
      const e = await failure(h.call("flagged", { x: 1 }));
      expect(e.code).toBe("TOOL_CONTEXT_INVALID");
      expect(e.message).toContain(variable);
      expect(e.message).toContain("'flags'");
      expectNoLeak(e, h.events);
    });
  }

  test("variables are read on every call: a change after a good call is seen", async () => {
    const { seen, handlers } = recordingNeeds();
    const env: Record<string, string | undefined> = { ...DB_ENV };
    const h = harness(SOURCE, { handlers, contexts: DB_CONTEXT, env });
    await h.call("db_write", { table: "t" });
    env.DB_PORT = "6543";
    await h.call("db_write", { table: "t" });
    expect(seen.map((n: any) => n.db.port)).toEqual([5432, 6543]);
    env.DB_PORT = "x";
    expect((await failure(h.call("db_write", { table: "t" }))).code).toBe("TOOL_CONTEXT_INVALID");
    delete env.DB_USER;
    expect((await failure(h.call("db_write", { table: "t" }))).message).toContain("DB_USER");
  });

  test("each call gets its own needs object", async () => {
    const { seen, handlers } = recordingNeeds();
    const h = harness(SOURCE, { handlers, contexts: DB_CONTEXT, env: DB_ENV });
    await h.call("db_write", { table: "t" });
    (seen[0] as any).db.user = "mutated";
    await h.call("db_write", { table: "t" });
    expect((seen[1] as any).db.user).toBe("ada");
  });

  test("a missing variable is TOOL_CONTEXT_INVALID naming context, field and variable", async () => {
    const h = harness(SOURCE, { ...recordingNeeds(), contexts: DB_CONTEXT, env: { DB_USER: "ada", DB_PORT: "1" } });
    const e = await failure(h.call("db_write", { table: "t" }));
    expect(e.code).toBe("TOOL_CONTEXT_INVALID");
    expect(e.message).toBe("Context 'db' field 'password': environment variable DB_PASSWORD is not set.");
  });

  test("a declared field of the wrong type is TOOL_CONTEXT_INVALID without its value", async () => {
    const contexts = { db: { user: { env: "DB_USER" }, password: { env: "DB_PASSWORD" }, port: { env: "DB_PASSWORD" } } };
    const h = harness(SOURCE, { ...recordingNeeds(), contexts, env: DB_ENV });
    const e = await failure(h.call("db_write", { table: "t" }));
    expect(e.code).toBe("TOOL_CONTEXT_INVALID");
    expect(e.message).toBe("Context 'db' field 'port' (from DB_PASSWORD) does not match Database (type).");
    expectNoLeak(e, h.events);
  });

  test("a declared field the context does not provide is TOOL_CONTEXT_INVALID", async () => {
    const contexts = { db: { user: { env: "DB_USER" } } };
    const h = harness(SOURCE, { ...recordingNeeds(), contexts, env: DB_ENV });
    const e = await failure(h.call("db_write", { table: "t" }));
    expect(e.code).toBe("TOOL_CONTEXT_INVALID");
    expect(e.message).toBe("Context 'db' does not provide field 'port' required by Database.");
  });

  test("a context missing from tool_contexts is TOOL_CONTEXT_INVALID", async () => {
    const h = harness(SOURCE, { ...recordingNeeds(), contexts: {}, env: DB_ENV });
    const e = await failure(h.call("db_write", { table: "t" }));
    expect(e.code).toBe("TOOL_CONTEXT_INVALID");
    expect(e.message).toBe("Tool 'db_write' needs context 'db', which tool_contexts does not define.");
  });

  test("agent tool_contexts: not given = all, a list allows what it names, [] = none", async () => {
    const { seen, handlers } = recordingNeeds();
    const h = harness(SOURCE, { handlers, contexts: DB_CONTEXT, env: DB_ENV });
    await h.callAs("Open", "db_write", { table: "t" });
    await h.callAs("OnlyDb", "db_write", { table: "t" });
    const e = await failure(h.callAs("NoContexts", "db_write", { table: "t" }));
    expect(e.code).toBe("TOOL_CONTEXT_INVALID");
    expect(e.message).toBe("Agent 'NoContexts' does not allow tool context 'db' (needed by tool 'db_write').");
    expect(seen.length).toBe(2);
  });
});

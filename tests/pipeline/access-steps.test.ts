/** Spec §9 steps 1–5 (§8 security policies): lookup, credential, scope, deny_write, approval. */
import { describe, expect, test } from "bun:test";
import { failure, harness } from "./harness";

const SOURCE = `
schema R { result: float }
tool calc(a: float @range(0, 100), b: float) -> R {}
tool db_write(value: string) -> R {
  side_effects: "write"
  scope: "db:write"
  credential: "DB_PASSWORD"
}
tool db_read(value: string) -> R {
  side_effects: "read"
  scope: "db:read"
}
agent Writer { tools: [db_write, db_read] tool_scopes: ["db:write"] }
agent Reader { tools: [db_write, db_read] tool_scopes: ["db:read"] }
agent Unscoped { tools: [db_write, db_read] }
agent Careful { tools: [db_write, db_read] tool_policy: "deny_write" }
agent CarefulReader { tools: [db_write] tool_policy: "deny_write" tool_scopes: [] }
agent Asking { tools: [db_write, db_read] tool_policy: "approval" }
`;

const counting = () => {
  const runs: string[] = [];
  const handlers = {
    calc: (i: any) => (runs.push("calc"), { result: i.a + i.b }),
    db_write: (_: any) => (runs.push("db_write"), { result: 1 }),
    db_read: (_: any) => (runs.push("db_read"), { result: 2 }),
  };
  return { runs, handlers };
};

const withPassword = { DB_PASSWORD: "s3cret-CANARY" };

describe("§9 step 1 registry lookup", () => {
  test("a name the program does not declare is TOOL_NOT_FOUND", async () => {
    const h = harness(SOURCE, counting());
    const e = await failure(h.call("nope", {}));
    expect(e.code).toBe("TOOL_NOT_FOUND");
    expect(e.message).toBe("Tool 'nope' is not declared in the program.");
  });

  test("a declared tool without a handler is TOOL_NOT_FOUND", async () => {
    const h = harness(SOURCE, { handlers: {} });
    const e = await failure(h.call("calc", { a: 1, b: 2 }));
    expect(e.code).toBe("TOOL_NOT_FOUND");
    expect(e.message).toBe("'calc' is not registered in the tool registry.");
  });

  test("lookup comes first: an unregistered tool with invalid input is TOOL_NOT_FOUND", async () => {
    const h = harness(SOURCE, { handlers: {} });
    expect((await failure(h.call("calc", { a: "x" }))).code).toBe("TOOL_NOT_FOUND");
  });
});

describe("§9 step 2 credential check", () => {
  test("'Tool 'db_write' is missing credential: DB_PASSWORD.' when the variable is unset; the tool never runs", async () => {
    const { runs, handlers } = counting();
    const h = harness(SOURCE, { handlers });
    const e = await failure(h.call("db_write", { value: "v" }));
    expect(e.code).toBe("TOOL_PERMISSION_DENIED");
    expect(e.message).toBe("Tool 'db_write' is missing credential: DB_PASSWORD.");
    expect(e.retryable).toBe(false);
    expect(runs).toEqual([]);
  });

  test("an empty variable counts as missing", async () => {
    const h = harness(SOURCE, { ...counting(), env: { DB_PASSWORD: "" } });
    expect((await failure(h.call("db_write", { value: "v" }))).message).toBe("Tool 'db_write' is missing credential: DB_PASSWORD.");
  });

  test("with the variable set the tool runs, and its value is in no trace event", async () => {
    const { runs, handlers } = counting();
    const h = harness(SOURCE, { handlers, env: withPassword });
    expect(await h.call("db_write", { value: "v" })).toEqual({ result: 1 });
    expect(runs).toEqual(["db_write"]);
    expect(JSON.stringify(h.events)).not.toContain("CANARY");
  });

  test("step order: a credential failure wins over invalid input", async () => {
    const h = harness(SOURCE, counting());
    const e = await failure(h.call("db_write", { value: 42, extra: true }));
    expect(e.code).toBe("TOOL_PERMISSION_DENIED");
  });
});

describe("§9 step 3 scope allowlist", () => {
  test("'Tool 'db_write' scope access was denied: db:write.' when the agent's tool_scopes lacks it", async () => {
    const { runs, handlers } = counting();
    const h = harness(SOURCE, { handlers, env: withPassword });
    const e = await failure(h.callAs("Reader", "db_write", { value: "v" }));
    expect(e.code).toBe("TOOL_PERMISSION_DENIED");
    expect(e.message).toBe("Tool 'db_write' scope access was denied: db:write.");
    expect(runs).toEqual([]);
  });

  test("a scope in tool_scopes is allowed", async () => {
    const h = harness(SOURCE, { ...counting(), env: withPassword });
    expect(await h.callAs("Writer", "db_write", { value: "v" })).toEqual({ result: 1 });
  });

  test("no tool_scopes on the agent means no scope check, and top-level calls have no agent policy", async () => {
    const h = harness(SOURCE, { ...counting(), env: withPassword });
    expect(await h.callAs("Unscoped", "db_read", { value: "v" })).toEqual({ result: 2 });
    expect(await h.call("db_read", { value: "v" })).toEqual({ result: 2 });
  });

  test("step order: the credential check comes before the scope check", async () => {
    const h = harness(SOURCE, counting());
    expect((await failure(h.callAs("Reader", "db_write", { value: "v" }))).message).toBe(
      "Tool 'db_write' is missing credential: DB_PASSWORD.",
    );
  });

  test("step order: the scope check comes before deny_write", async () => {
    const h = harness(SOURCE, { ...counting(), env: withPassword });
    expect((await failure(h.callAs("CarefulReader", "db_write", { value: "v" }))).message).toBe(
      "Tool 'db_write' scope access was denied: db:write.",
    );
  });
});

describe("§9 step 4 tool_policy deny_write", () => {
  test("deny_write refuses a write tool with TOOL_PERMISSION_DENIED and never runs it", async () => {
    const { runs, handlers } = counting();
    const h = harness(SOURCE, { handlers, env: withPassword });
    const e = await failure(h.callAs("Careful", "db_write", { value: "v" }));
    expect(e.code).toBe("TOOL_PERMISSION_DENIED");
    expect(e.message).toBe("Tool 'db_write' writes, and agent 'Careful' has tool_policy deny_write.");
    expect(runs).toEqual([]);
  });

  test("deny_write lets read tools run", async () => {
    const h = harness(SOURCE, { ...counting(), env: withPassword });
    expect(await h.callAs("Careful", "db_read", { value: "v" })).toEqual({ result: 2 });
  });
});

describe("§9 step 5 tool_policy approval", () => {
  test("a write tool listed in LUMA_APPROVED_TOOLS (comma-separated) runs without asking", async () => {
    const asked: string[] = [];
    const h = harness(SOURCE, {
      ...counting(),
      env: { ...withPassword, LUMA_APPROVED_TOOLS: "send_email, db_write" },
      approve: async (t) => (asked.push(t), false),
    });
    expect(await h.callAs("Asking", "db_write", { value: "v" })).toEqual({ result: 1 });
    expect(asked).toEqual([]);
  });

  test("not listed and not interactive (no approve callback): refused", async () => {
    const { runs, handlers } = counting();
    const h = harness(SOURCE, { handlers, env: { ...withPassword, LUMA_APPROVED_TOOLS: "send_email" } });
    const e = await failure(h.callAs("Asking", "db_write", { value: "v" }));
    expect(e.code).toBe("TOOL_PERMISSION_DENIED");
    expect(e.message).toContain("LUMA_APPROVED_TOOLS");
    expect(runs).toEqual([]);
  });

  test("not listed: the user is asked; yes runs the tool, no refuses it", async () => {
    let answer = true;
    const asked: string[] = [];
    const { runs, handlers } = counting();
    const h = harness(SOURCE, { handlers, env: withPassword, approve: async (t) => (asked.push(t), answer) });
    expect(await h.callAs("Asking", "db_write", { value: "v" })).toEqual({ result: 1 });
    answer = false;
    const e = await failure(h.callAs("Asking", "db_write", { value: "v" }));
    expect(e.code).toBe("TOOL_PERMISSION_DENIED");
    expect(e.message).toBe("Tool 'db_write' was not approved.");
    expect(asked).toEqual(["db_write", "db_write"]);
    expect(runs).toEqual(["db_write"]);
  });

  test("approval applies to write tools only", async () => {
    const h = harness(SOURCE, { ...counting(), env: withPassword });
    expect(await h.callAs("Asking", "db_read", { value: "v" })).toEqual({ result: 2 });
  });

  test("step order: an approval refusal wins over invalid input", async () => {
    const h = harness(SOURCE, { ...counting(), env: withPassword });
    expect((await failure(h.callAs("Asking", "db_write", { value: 7 }))).code).toBe("TOOL_PERMISSION_DENIED");
  });
});

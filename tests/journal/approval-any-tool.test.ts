/**
 * Issue #25 §4: approval on any tool, through `dist/luma`. `approval: true` makes every call
 * of the tool wait for approval — a read tool, called from top-level code, no agent policy
 * involved — as `tool_policy: "approval"` does for writes (LUMA_APPROVED_TOOLS pre-approves
 * it). `approval: Schema` also wants a note of that schema from the approver: `luma approve`
 * without `--json` is refused naming the schema, an invalid note naming the field (nothing
 * recorded either way), and a valid one reaches the handler as `ctx.approval`.
 */
import { describe, expect, test } from "bun:test";
import { JournalProject } from "./journal-project";

const TOOLS = `
import { appendFileSync } from "node:fs";
import { join } from "node:path";
export const tools = {
  lookup_order: (input) => {
    appendFileSync(join(process.env.PROJECT_DIR, "calls.log"), JSON.stringify({ tool: "lookup_order", id: input.id }) + "\\n");
    return { id: input.id, total: 40 };
  },
  issue_refund: (input, _signal, _needs, ctx) => {
    appendFileSync(join(process.env.PROJECT_DIR, "calls.log"), JSON.stringify({ tool: "issue_refund", approval: ctx.approval }) + "\\n");
    return { ok: true, note: ctx.approval.reason };
  },
};
`;

const READ_APPROVAL = `
schema Order { id: string  total: float }
tool lookup_order(id: string) -> Order { side_effects: "read"  approval: true }
print("before")
o = tool lookup_order({ id: "A-7" })
print("order", o.id)
`;

const NOTE_APPROVAL = `
schema RefundNote { reason: string  ticket?: int  priority: int @range(1, 3) @default(2) }
schema Refunded { ok: bool  note: string }
tool issue_refund(order: string, amount: float) -> Refunded { side_effects: "write"  approval: RefundNote }
r = tool issue_refund({ order: "A-7", amount: 40.0 })
print("refunded", r.note)
`;

const J = ["--journal", "runs.sqlite"];

const project = (program: string) => {
  const p = new JournalProject(program);
  p.write("tools.ts", TOOLS);
  return p;
};

const pending = async (p: JournalProject) => JSON.parse((await p.run(["runs", ...J, "--format", "json"])).stdout).pending;

describe("approval: true on any tool (issue #25 §4)", () => {
  test("a read tool called from top-level code waits for approval (exit 75); approved, it runs once on resume", async () => {
    const p = project(READ_APPROVAL);
    const first = await p.runFlow("a1", J);
    expect(first.exitCode).toBe(75);
    expect(first.stdout).toBe("before\n");
    expect(first.stderr).toContain("Run a1 is waiting for approval of tool 'lookup_order' at step main/1.");
    expect(p.lines("calls.log")).toEqual([]);
    expect(await pending(p)).toMatchObject([{ run: "a1", step: "main/1", kind: "approval", tool: "lookup_order", args: { id: "A-7" } }]);
    expect((await p.run(["approve", "--run-id", "a1", ...J])).exitCode).toBe(0);
    const resumed = await p.runFlow("a1", J);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("before\norder A-7\n");
    expect(p.lines("calls.log")).toEqual([{ tool: "lookup_order", id: "A-7" }]);
  });

  test("without a journal or a terminal the call is refused; LUMA_APPROVED_TOOLS pre-approves it", async () => {
    const p = project(READ_APPROVAL);
    const refused = await p.run(["flow.luma"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("[TOOL_PERMISSION_DENIED] Tool 'lookup_order' needs approval");
    const listed = await p.run(["flow.luma"], { LUMA_APPROVED_TOOLS: "lookup_order" });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toBe("before\norder A-7\n");
  });
});

describe("approval: Schema — the approver's note (issue #25 §4)", () => {
  test("luma approve needs --json (refused naming the schema), validates it (refused naming the field), and the handler gets it as ctx.approval", async () => {
    const p = project(NOTE_APPROVAL);
    const first = await p.runFlow("n1", J);
    expect(first.exitCode).toBe(75);
    expect(first.stderr).toBe(
      "Error: Run n1 is waiting for approval of tool 'issue_refund' at step main/1, with a RefundNote. Approve with: luma approve --run-id n1 --step main/1 --json '{…}' (a RefundNote; or luma deny …), then run it again with --run-id n1.\n",
    );
    const waiting = await pending(p);
    expect(waiting).toMatchObject([{ step: "main/1", kind: "approval", schema: "RefundNote", tool: "issue_refund" }]);

    const bare = await p.run(["approve", "--run-id", "n1", ...J]);
    expect(bare.exitCode).toBe(1);
    expect(bare.stderr).toContain("Refused: tool 'issue_refund' needs a RefundNote with its approval: pass --json '{…}' (a RefundNote); nothing was recorded.");
    const invalid = await p.run(["approve", "--run-id", "n1", "--json", '{"reason": "damaged", "priority": 9}', ...J]);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr).toContain("RefundNote.priority must be <= 3");
    const missing = await p.run(["approve", "--run-id", "n1", "--json", '{"ticket": 4}', ...J]);
    expect(missing.stderr).toContain("RefundNote.reason is required");
    expect(await pending(p)).toEqual(waiting);
    expect(p.lines("calls.log")).toEqual([]);

    const ok = await p.run(["approve", "--run-id", "n1", "--json", '{"reason": "damaged", "ticket": 12}', ...J]);
    expect(ok.exitCode).toBe(0);
    const resumed = await p.runFlow("n1", J);
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("refunded damaged\n");
    // Validated by the program's schema on the way in: the @default filled `priority`.
    expect(p.lines("calls.log")).toEqual([{ tool: "issue_refund", approval: { reason: "damaged", ticket: 12, priority: 2 } }]);
  });

  test("luma deny needs no note: the call fails TOOL_PERMISSION_DENIED; LUMA_APPROVED_TOOLS cannot stand in for a note", async () => {
    const p = project(NOTE_APPROVAL);
    await p.runFlow("n2", J);
    expect((await p.run(["deny", "--run-id", "n2", ...J])).exitCode).toBe(0);
    const denied = await p.runFlow("n2", J);
    expect(denied.exitCode).toBe(1);
    expect(denied.stderr).toContain("[TOOL_PERMISSION_DENIED] Tool 'issue_refund' was not approved.");

    const listed = await p.run(["flow.luma"], { LUMA_APPROVED_TOOLS: "issue_refund" });
    expect(listed.exitCode).toBe(1);
    expect(listed.stderr).toContain("Tool 'issue_refund' needs approval with a RefundNote: no interactive terminal, MCP client or journal can supply one.");
    expect(p.lines("calls.log")).toEqual([]);
  });

  test("a tool without a note schema refuses --json on approve", async () => {
    const p = project(READ_APPROVAL);
    await p.runFlow("a3", J);
    const r = await p.run(["approve", "--run-id", "a3", "--json", "{}", ...J]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("takes no value with its approval");
  });

  test("luma check: approval must be true, false or a schema (not a union, not a string)", async () => {
    const p = project(`
schema Out { ok: bool }
tool a(x: string) -> Out { approval: "yes" }
tool b(x: string) -> Out { approval: Nope }
`);
    const r = await p.run(["check", "flow.luma"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Key 'approval' in tool 'a' must be true, false or a schema name.");
    expect(r.stderr).toContain("Nope");
  });
});

/**
 * Issue #25 §4 on a real pseudo-terminal (util-linux `script`): with stdin an interactive
 * terminal and no journal, a client tool's answer is asked as JSON on one line (an invalid
 * one is named and asked again; an empty line declines), and an approval's note field by
 * field (an empty first answer declines). The answer is the call's result; the note reaches
 * the handler as `ctx.approval`.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";
import { hasScript, startOnPty } from "./pty-session";

const PROGRAM = `
schema Confirmed { ok: bool  zip: string }
schema RefundNote { reason: string  ticket?: int }
schema Refunded { note: string }
tool confirm_address(street: string) -> Confirmed { handler: "client" }
tool issue_refund(order: string) -> Refunded { side_effects: "write"  approval: RefundNote }
try {
  c = tool confirm_address({ street: "Main St 1" })
  print("confirmed", c.ok, c.zip)
} catch e {
  print("unanswered", e.code, e.message)
}
try {
  r = tool issue_refund({ order: "A-7" })
  print("refunded", r.note)
} catch e {
  print("refused", e.code, e.message)
}
`;

const project = () => {
  const dir = mkdtempSync(join(tmpdir(), "luma-value-prompt-"));
  writeFileSync(join(dir, "tools.ts"), "export const lumaTools = { issue_refund: (i, _s, _n, ctx) => ({ note: `${i.order}: ${ctx.approval.reason} #${ctx.approval.ticket ?? '-'}` }) };\n");
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"] }));
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  return dir;
};

const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", LUMA_NO_CACHE: "1", TERM: "dumb" };

const ptyAvailable = hasScript();
if (!ptyAvailable && process.env.CI === "true") throw new Error("util-linux `script` is required for the terminal prompt tests in CI");
const onPty = ptyAvailable ? test : test.skip;

const ANSWER = "Answer with a Confirmed as JSON on one line (an empty line declines): ";
const NOTE = "Approve tool 'issue_refund' with a RefundNote (an empty first answer declines):";

describe("the terminal asks for a client tool's answer and an approval's note", () => {
  onPty("an invalid answer is named and asked again; a valid one is the result; the note is asked field by field", async () => {
    const s = startOnPty([ensureBinary(), "main.luma"], { cwd: project(), env });
    const shown = await s.waitFor(ANSWER);
    expect(shown).toContain(`Client tool 'confirm_address' is called with {"street":"Main St 1"}`);
    s.type('{"ok": true}');
    await s.waitFor("Not a valid Confirmed: confirm_address.output.zip is required");
    s.type('{"ok": true, "zip": "12345"}');
    await s.waitFor("  reason (string): ");
    s.type("damaged");
    await s.waitFor("  ticket (integer, optional): ");
    s.type("12");
    const r = await s.finish();
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain("confirmed true 12345\n");
    expect(r.output).toContain(NOTE);
    expect(r.output).toContain("refunded A-7: damaged #12\n");
  });

  onPty("an empty line declines the answer (CLIENT_TOOL_UNANSWERED); an empty first field declines the approval", async () => {
    const s = startOnPty([ensureBinary(), "main.luma"], { cwd: project(), env });
    await s.waitFor(ANSWER);
    s.type("");
    await s.waitFor("  reason (string): ");
    s.type("");
    const r = await s.finish();
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain("unanswered CLIENT_TOOL_UNANSWERED Client tool 'confirm_address' was not answered: the caller declined.\n");
    expect(r.output).toContain("refused TOOL_PERMISSION_DENIED Tool 'issue_refund' was not approved.\n");
  });

  onPty("approval: true on a read tool asks y/N from top-level code, naming it a tool, not a write tool", async () => {
    const dir = project();
    writeFileSync(join(dir, "read.luma"), `schema Order { id: string }\ntool lookup(id: string) -> Order { side_effects: "read"  approval: true }\no = tool lookup({ id: "A-7" })\nprint("looked up", o.id)\n`);
    writeFileSync(join(dir, "tools.ts"), "export const lumaTools = { issue_refund: () => ({ note: '' }), lookup: (i) => ({ id: i.id }) };\n");
    const s = startOnPty([ensureBinary(), "read.luma"], { cwd: dir, env });
    const shown = await s.waitFor("Allow tool 'lookup' to run? [y/N] ");
    expect(shown).toContain(`Tool 'lookup' is called with {"id":"A-7"}`);
    s.type("y");
    const r = await s.finish();
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain("looked up A-7\n");
  });
});

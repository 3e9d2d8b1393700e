/**
 * Issue #25 §5: `max_result_chars` cuts only what the model is shown. In a journaled run the
 * native call's receipt holds the whole result, while the request sent to the model carried
 * the cut text and its marker — examples/081_tool_audience.luma through dist/luma, replayed
 * from its cassette, with a SQLite journal read back as it is stored.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";

test("the journal keeps the whole result of a native call; the model's request had the cut", () => {
  const dir = mkdtempSync(join(tmpdir(), "luma-cut-journal-"));
  for (const f of ["081_tool_audience.luma", "tools/audience-tools.ts", "cassettes/081_tool_audience.jsonl"]) copyFileSync(join(REPO, "examples", f), join(dir, f.split("/").pop()!));
  const r = runLuma(["081_tool_audience.luma", "--tool-module", "audience-tools.ts", "--replay", "081_tool_audience.jsonl", "--journal", "j.db", "--run-id", "cut1"], { cwd: dir });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);

  const db = new Database(join(dir, "j.db"), { readonly: true });
  const steps = db.query("SELECT step_id, name, output FROM luma_journal_steps WHERE run_id = 'cut1' AND kind = 'tool' AND name = 'read_help_page'").all() as { step_id: string; output: string }[];
  db.close();
  const native = steps.find((s) => s.step_id.endsWith(".call2"))!;
  const whole = JSON.parse(native.output).ok.text as string;
  expect(whole).toHaveLength(255);
  expect(whole).toEndWith("Orders to remote areas may take up to 10 business days.");

  const sent = readFileSync(join(dir, "081_tool_audience.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).request.body);
  const shown = sent[1].messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "call_1_1").content as string;
  expect(shown).toEndWith("… [cut: 120 of 304 characters shown]");
  expect(shown).not.toContain("remote areas");
});

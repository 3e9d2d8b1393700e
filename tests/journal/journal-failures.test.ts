/**
 * Durable runs (issue #15) when the journal itself fails to record: a hostile or broken
 * journal file (here a trigger a tool handler plants in the SQLite journal, refusing one
 * kind of write) — real processes, the real `dist/luma`.
 *
 * A failed receipt stops the run where it happened (a program's `try` cannot catch it and
 * carry on unjournaled); a failed end-of-run record is reported as the journal's error
 * while everything else the run holds is still released — its spans still reach the
 * OTLP collector. Never an "internal error".
 */
import { describe, expect, test } from "bun:test";
import { startReceiver } from "../telemetry/otlp-receiver";
import { JournalProject } from "./journal-project";

const SABOTAGE_TS = `
import { Database } from "bun:sqlite";
import { join } from "node:path";
export const tools = {
  sabotage: (input) => {
    const db = new Database(join(process.env.PROJECT_DIR, "runs.sqlite"));
    db.exec(input.sql);
    db.close();
    return { done: 1 };
  },
};
`;

/** A program whose one tool call plants `trigger` in its own journal, inside a `try`. */
const sabotaging = (trigger: string) => `
schema Done { done: int }
tool sabotage(sql: string) -> Done {
  side_effects: "write"
}
try {
  r = tool sabotage({ sql: "${trigger}" })
  print("done", r.done)
} catch err {
  print("caught", err.code)
}
print("after")
`;

const project = (trigger: string) => {
  const p = new JournalProject(sabotaging(trigger), { journal: { backend: "sqlite", path: "runs.sqlite" } });
  p.write("tools.ts", SABOTAGE_TS);
  return p;
};

describe("Durable runs (issue #15 §2): a journal that cannot record stops the run with its own error", () => {
  test("a step's finish receipt refused: the run stops at that step (exit 1, not caught by try), naming the journal; the step stays 'begun'", async () => {
    const p = project("CREATE TRIGGER full BEFORE UPDATE ON luma_journal_steps BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    const r = await p.runFlow("f1");
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    // The error line, then where the run stopped (the tool call whose receipt was refused).
    expect(r.stderr).toStartWith("Error: [RUNTIME_ERROR] Journal runs.sqlite failed: disk full\n  --> flow.luma:7:7\n");
    const shown = JSON.parse((await p.run(["runs", "show", "f1", "--format", "json"])).stdout);
    expect(shown.status).toBe("failed");
    expect(shown.steps.map((s: { step: string; outcome: string }) => [s.step, s.outcome])).toEqual([["main/1", "begun"]]);
  });

  test("the run's end refused: exit 1 naming the journal, the program's output complete, and its spans still exported", async () => {
    const rx = startReceiver();
    try {
      const p = project("CREATE TRIGGER no_end BEFORE UPDATE OF status ON luma_journal_runs WHEN NEW.token IS NULL BEGIN SELECT RAISE(ABORT, 'hostile journal'); END");
      const r = await p.runFlow("f2", [], { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url });
      expect(r.stdout).toBe("done 1\nafter\n");
      expect(r.stderr).toBe("Error: [RUNTIME_ERROR] Journal runs.sqlite failed: hostile journal\n");
      expect(r.exitCode).toBe(1);
      expect(rx.spans.map((s) => s.name)).toContain("execute_tool sabotage");
    } finally {
      rx.stop();
    }
  });
});

/**
 * The journal's subcommands as the user sees them (durable runs): tables for people,
 * `--format json` for machines. The work is in runtime/journal/journal-admin.ts; this file
 * only renders. Loaded only when one of these subcommands runs.
 */
import type { JournalCommand } from "./journal-argv";
import { answer, decide, listRuns, showRun, type AdminOptions, type PendingView } from "../runtime/journal/journal-admin";

const table = (head: string[], rows: string[][]): string => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [line(head), ...rows.map(line)].join("\n");
};

/** An approval that wants a note (`approval: Schema`) says so beside the tool: `issue_refund (note: RefundNote)`. */
const toolCell = (p: PendingView): string => (p.schema === undefined ? p.tool : `${p.tool} (note: ${p.schema})`);

const ms = (v: number | null) => (v === null ? "-" : `${v.toFixed(1)} ms`);

/** A pending call for machines: its arguments as the JSON object they are, not as their text. */
const pendingJson = (p: PendingView) => {
  let args: unknown = p.args;
  try {
    args = JSON.parse(p.args);
  } catch {
    // Arguments recorded by Luma are JSON text; anything else is shown as it was stored.
  }
  return { ...p, args };
};

export async function runJournalCommand(cmd: JournalCommand, out: (text: string) => void, base: Omit<AdminOptions, "journal" | "config">): Promise<number> {
  const opts: AdminOptions = { ...base, journal: cmd.journal, config: cmd.config };
  switch (cmd.kind) {
    case "approve":
    case "deny": {
      const a = await decide(opts, cmd.kind === "approve" ? "approved" : "denied", cmd.runId, cmd.step, cmd.digest, cmd.json);
      out(`${cmd.kind === "approve" ? "approved" : "denied"}: run ${a.run} step ${a.step} (tool '${a.tool}', input digest ${a.digest}); run it again with --run-id ${a.run}`);
      return 0;
    }
    case "runs-answer": {
      const a = await answer(opts, cmd.runId, cmd.step, cmd.digest, cmd.json);
      // A server's question during an mcp: tool's call waits at `<step>#q<n>` (journaled-questions.ts).
      const what = /#q\d+$/.test(a.step) ? `MCP server's question during tool '${a.tool}', question digest` : `client tool '${a.tool}', input digest`;
      out(`answered: run ${a.run} step ${a.step} (${what} ${a.digest}); run it again with --run-id ${a.run}`);
      return 0;
    }
    case "runs": {
      const r = await listRuns(opts);
      if (cmd.format === "json") {
        out(JSON.stringify({ runs: r.runs.map((x) => ({ run: x.runId, program: x.program, status: x.status, steps: x.steps, created_at: new Date(x.createdAt).toISOString(), updated_at: new Date(x.updatedAt).toISOString() })), pending: r.pending.map(pendingJson) }));
        return 0;
      }
      out(r.runs.length === 0 ? "no runs" : table(["RUN", "STATUS", "STEPS", "PROGRAM", "UPDATED"], r.runs.map((x) => [x.runId, x.status, String(x.steps), x.program, new Date(x.updatedAt).toISOString()])));
      const approvals = r.pending.filter((p) => p.kind === "approval");
      const answers = r.pending.filter((p) => p.kind === "answer");
      if (approvals.length > 0) {
        out("");
        out("Pending approvals:");
        out(table(["RUN", "STEP", "TOOL", "DIGEST", "ARGUMENTS"], approvals.map((p) => [p.run, p.step, toolCell(p), p.digest, p.args])));
      }
      if (answers.length > 0) {
        out("");
        out("Waiting for an answer (luma runs answer):");
        out(table(["RUN", "STEP", "TOOL", "ANSWER", "DIGEST", "ARGUMENTS"], answers.map((p) => [p.run, p.step, p.tool, p.schema ?? "", p.digest, p.args])));
      }
      return 0;
    }
    case "runs-show": {
      const r = await showRun(opts, cmd.runId);
      if (cmd.format === "json") {
        out(JSON.stringify({ run: r.run.runId, program: r.run.program, status: r.run.status, steps: r.steps }));
        return 0;
      }
      out(`run ${r.run.runId} (${r.run.program}): ${r.run.status}`);
      out(table(["STEP", "KIND", "NAME", "OUTCOME", "ATTEMPTS", "DURATION"], r.steps.map((s) => [s.step, s.kind, s.name, s.code ? `${s.outcome} ${s.code}` : s.outcome, String(s.attempts), ms(s.duration_ms)])));
      return 0;
    }
  }
}

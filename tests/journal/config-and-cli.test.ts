/**
 * Durable runs (issue #15): how a journal is asked for (`"journal"` in luma.config.json,
 * `--journal PATH`, `--run-id ID`) and the subcommands that read and decide (`luma runs`,
 * `luma runs show`, `luma approve`, `luma deny`), with their usage and startup errors.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { parseArgv } from "../../src/cli/argv";
import { runLuma } from "../support/luma-binary";
import { GATED, JournalProject } from "./journal-project";

describe("Durable runs (issue #15 §1): asking for a journal", () => {
  test("parseArgv: --journal PATH and --run-id ID before or after FILE; the subcommands and their options", () => {
    expect(parseArgv(["--journal", "j.sqlite", "a.luma", "--run-id=r1", "x"])).toMatchObject({ kind: "run", file: "a.luma", journal: "j.sqlite", runId: "r1", args: ["x"] });
    expect(parseArgv(["runs"])).toEqual({ kind: "runs", journal: undefined, config: undefined, format: "table" });
    expect(parseArgv(["runs", "show", "r1", "--format", "json", "--journal", "j"])).toEqual({ kind: "runs-show", runId: "r1", journal: "j", config: undefined, format: "json" });
    expect(parseArgv(["approve", "--run-id", "r1", "--step", "main/1", "--digest", "d"])).toMatchObject({ kind: "approve", runId: "r1", step: "main/1", digest: "d" });
    expect(parseArgv(["deny", "--run-id=r1"])).toMatchObject({ kind: "deny", runId: "r1" });
    expect(() => parseArgv(["approve"])).toThrow("luma approve needs --run-id ID");
    expect(() => parseArgv(["deny", "--run-id", "r", "--digest", "d"])).toThrow("luma deny does not take --digest");
    expect(() => parseArgv(["runs", "show"])).toThrow("luma runs show needs a run id: luma runs show ID");
    expect(() => parseArgv(["runs", "--format", "xml"])).toThrow("--format takes table or json, not 'xml'");
    expect(() => parseArgv(["check", "a.luma", "--journal", "j"])).toThrow("luma check takes no run options (only --format): it parses and checks FILE only");
  });

  test("--help names the options, the subcommands and exit code 75; a usage error exits 64", () => {
    const help = runLuma(["--help"]);
    expect(help.stdout).toContain("--journal PATH");
    expect(help.stdout).toContain("--run-id ID");
    expect(help.stdout).toContain("luma approve --run-id ID");
    expect(help.stdout).toContain("luma deny --run-id ID");
    expect(help.stdout).toContain("75 a journaled run waits for an approval");
    expect(runLuma(["approve"]).exitCode).toBe(64);
  });

  test("a journal setting that does not fit its backend, or a postgres url_env that is unset, rejects the program (exit 2) before it runs, under the journal's own code", async () => {
    const p = new JournalProject(GATED, { journal: { backend: "sqlite", url: "postgres://x" } });
    const r = await p.run(["flow.luma"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'journal.url' does not apply to the sqlite backend");
    const q = new JournalProject(GATED, { journal: { backend: "postgres", url_env: "NO_SUCH_PG_URL" } });
    const s = await q.run(["flow.luma"]);
    expect(s.exitCode).toBe(2);
    expect(s.stderr).toBe("Error: journal (postgres): environment variable NO_SUCH_PG_URL is not set.\n  = code E0906 (luma explain E0906)\n");
    expect(existsSync(q.path("effects.log"))).toBe(false);
  });

  test("a PostgreSQL journal that cannot be reached rejects the program (exit 2) as the journal, with its code and no password", async () => {
    const p = new JournalProject(GATED, { journal: { backend: "postgres", url_env: "JOURNAL_URL" } });
    const r = await p.run(["flow.luma"], { JOURNAL_URL: "postgres://luma:pw-s3cret@127.0.0.1:1/app" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^Error: Journal postgres:\/\/127\.0\.0\.1:1\/app: cannot open it: .+\n  = code E0907 \(luma explain E0907\)\n$/);
    expect(r.stderr).not.toContain("pw-s3cret");
    expect(readdirSync(p.dir).filter((f) => f.startsWith("started."))).toEqual([]);
  });

  test("luma runs without a journal, or with a journal file that does not exist, says so (exit 2) and creates nothing", async () => {
    const p = new JournalProject(GATED);
    expect((await p.run(["runs"])).stderr).toBe(`Error: No journal: pass --journal PATH, or set "journal" in luma.config.json.\n  = code E0901 (luma explain E0901)\n`);
    const missing = await p.run(["runs", "--journal", "nope.sqlite"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe("Error: Journal nope.sqlite does not exist.\n  = code E0901 (luma explain E0901)\n");
    expect(existsSync(p.path("nope.sqlite"))).toBe(false);
    p.write("release", "");
    expect((await p.run(["flow.luma", "--journal", "j.sqlite", "--run-id", "x"])).exitCode).toBe(0);
    expect((await p.run(["runs", "--journal", "j.sqlite"])).stdout).toMatch(/^RUN\s+STATUS\s+STEPS\s+PROGRAM\s+UPDATED\nx\s+finished\s+1\s+flow\.luma\s+\S+\n$/);
  });
});

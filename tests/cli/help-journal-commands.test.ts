/**
 * `luma --help` on the journal's subcommands (issue #15), through the real binary: each
 * option the help line of `luma runs`, `luma approve` or `luma deny` names is one that
 * subcommand accepts, the help names every option its parser takes (`--config` included),
 * and `deny` — which has no `--digest` — is not shown with one and refuses it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JOURNAL_OPTIONS } from "../../src/cli/journal-argv";
import { runLuma } from "../support/luma-binary";

const help = runLuma(["--help"]).stdout;
// Probes run in an empty directory: a journal path they name never lands in the repository.
const cwd = mkdtempSync(join(tmpdir(), "luma-help-journal-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The options on the help's `  luma <sub> …` usage line. */
const helpFlags = (sub: string): string[] => {
  const line = help.split("\n").find((l) => l.startsWith(`  luma ${sub} `));
  expect(line).toBeDefined();
  return [...line!.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]).sort();
};

const probes: [sub: "runs" | "approve" | "deny", base: string[]][] = [
  ["runs", ["runs"]],
  ["approve", ["approve", "--run-id", "r"]],
  ["deny", ["deny", "--run-id", "r"]],
];

describe("§15 luma --help names the journal subcommands' options as their parsers take them", () => {
  for (const [sub, base] of probes) {
    test(`every option the help line of \`luma ${sub}\` names is accepted there (no usage error, exit 64)`, () => {
      for (const option of helpFlags(sub)) {
        const value = option === "--format" ? "json" : option === "--run-id" ? "r" : "nowhere.sqlite";
        const r = runLuma([...base, `${option}=${value}`], { cwd });
        expect({ option, usage: r.exitCode === 64 ? r.stderr : "" }).toEqual({ option, usage: "" });
      }
    });

    test(`the help line of \`luma ${sub}\` names every option its parser takes (--config included)`, () => {
      expect(helpFlags(sub)).toEqual(Object.keys(JOURNAL_OPTIONS[sub]).sort());
      expect(helpFlags(sub)).toContain("--config");
    });
  }

  test("`luma deny` is shown without --digest, and `luma deny --digest D` is a usage error", () => {
    expect(helpFlags("deny")).not.toContain("--digest");
    expect(helpFlags("approve")).toContain("--digest");
    const r = runLuma(["deny", "--run-id", "r", "--digest", "d"], { cwd });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain("luma deny does not take --digest");
    expect(readdirSync(cwd)).toEqual([]);
  });
});

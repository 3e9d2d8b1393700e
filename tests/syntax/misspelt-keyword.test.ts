/**
 * A misspelt declaration keyword (issue #11) through `dist/luma`: one located error with
 * the keyword meant, never the cascade of unknown names the statements it reads as gave.
 */
import { describe, expect, test } from "bun:test";
import { runLuma } from "../support/luma-binary";
import { programDir } from "./parse-helpers";

describe("§2 Declarations: a misspelt declaration keyword is one error with the keyword meant", () => {
  test.each([
    ["shema", "schema", "shema Answer {\n  text: string\n}\n"],
    ["tol", "tool", "tol calc(a: int) -> R {\n}\n"],
    ["agnet", "agent", "agnet Worker {\n  tools: []\n}\n"],
    ["modle", "model", 'modle m {\n  provider: "openai"\n}\n'],
    ["qurey", "query", "qurey q(id: int) -> R {\n}\n"],
    ["shema (a union)", "schema", "shema U = A | B tagged by kind\n"],
  ])("`%s` → did you mean `%s`?", (word, meant, source) => {
    const r = runLuma(["check", "app.luma"], { cwd: programDir(`x = 1\n${source}`) });
    expect(r.exitCode).toBe(2);
    const spelt = word.split(" ")[0];
    expect(r.stderr).toStartWith(
      `app.luma:2:1: error[E0110]: Unknown declaration keyword '${spelt}'\n  2 | ${source.split("\n")[0]}\n    | ${"^".repeat(spelt.length)}\n`,
    );
    expect(r.stderr).toContain(`did you mean \`${meant}\`?`);
    expect(r.stderr.match(/error\[/g)).toHaveLength(1);
  }, 30_000);

  test("a name near a keyword used as a variable is not a misspelling", () => {
    const r = runLuma(["app.luma"], { cwd: programDir("shema = 1\ntol = [shema]\nprint(tol)\n") });
    expect(r).toEqual({ exitCode: 0, stdout: "[1]\n", stderr: "" });
  }, 30_000);
});

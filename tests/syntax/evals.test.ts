/**
 * Issue #31 §2, the syntax of `luma eval`: `eval "name" over "data.jsonl" { … }` at the top
 * level and the statement `score "name" expr`. Both parsers give the same AST (the fast
 * parser is held to the Ohm path byte for byte); `eval`, `over` and `score` are contextual
 * words, so programs that use them as names still parse as before; the names and the
 * dataset path are plain strings.
 */
import { describe, expect, test } from "bun:test";
import { fastParse } from "../../src/syntax/fast-parse/fast-program";
import { parse } from "../../src/syntax/parse";
import { FILE, parseOk, textAt } from "./parse-helpers";

const json = (value: unknown) => JSON.stringify(value);
/** Both parsers' programs, which must be equal. */
function both(source: string) {
  const ohm = parse(source, FILE, { engine: "ohm" });
  const fast = fastParse(source, FILE);
  expect(fast).toBeDefined();
  expect(json(fast)).toBe(json(ohm.program));
  return ohm.program!;
}

describe("eval NAME over DATASET { … } and score NAME EXPR", () => {
  const source = `eval "triage routes" over "evals/triage.jsonl" {\n  out = Triage.run(case.input.text)\n  score "route" out.route == case.expected.route\n  score "polite" Grader.rate(out.reply)\n}\n`;

  test("an eval block is a program's eval, not a statement or declaration; its body holds the scores", () => {
    const p = both(source);
    expect(p.decls).toEqual([]);
    expect(p.body).toEqual([]);
    const [e] = p.evals!;
    expect([e.name, e.dataset, textAt(source, e.nameSpan), textAt(source, e.datasetSpan)]).toEqual(["triage routes", "evals/triage.jsonl", '"triage routes"', '"evals/triage.jsonl"']);
    expect(e.body.map((s) => s.kind)).toEqual(["Assign", "Score", "Score"]);
    const score = e.body[1] as Extract<(typeof e.body)[number], { kind: "Score" }>;
    expect([score.name, textAt(source, score.value.span), textAt(source, score.span)]).toEqual(["route", "out.route == case.expected.route", 'score "route" out.route == case.expected.route']);
  });

  test("score parses in any block (the checker keeps it in an eval's)", () => {
    const p = both(`fn f() -> int {\n  if true { score "x" 1 }\n  return 1\n}\n`);
    expect(json(p.decls[0])).toContain('"kind":"Score"');
  });

  test("eval, over and score stay usable as names", () => {
    const p = both(`eval = 1\nover = eval + 1\nscore = over\nprint(score)\nscore(1)\n`);
    expect(p.body.map((s) => s.kind)).toEqual(["Assign", "Assign", "Assign", "ExprStmt", "ExprStmt"]);
    expect(p.evals).toBeUndefined();
  });

  test("`score` followed by something on the next line is a name, not a score", () => {
    const p = parseOk(`score = 1\nscore\n"x"\n`);
    expect(p.body.map((s) => s.kind)).toEqual(["Assign", "ExprStmt", "ExprStmt"]);
  });

  test("without `over DATASET` it is no eval (a contextual word: `eval` reads as a name); an interpolated name is an error", () => {
    const p = both(`eval "e" {\n}\n`);
    expect([p.evals, p.body[0].kind]).toEqual([undefined, "ExprStmt"]);
    expect(parse(`eval "e{x}" over "d.jsonl" {\n}\n`, FILE).diagnostics.map((d) => d.message)).toEqual(["an eval name is a plain string: it cannot hold {…}"]);
  });
});

/**
 * Spec §3 `@severity`: a soft issue on an output "annotates": a `warning:` line naming the
 * path and the rule on stderr, and a `validation.soft` trace event — worded one way for
 * tool results, ask results, query rows and typed values (runtime/base/soft-issue-report.ts).
 * Also the one wording of a value's kind in "must be …, got <kind>" messages.
 */
import { describe, expect, test } from "bun:test";
import { softValidationEvent, softWarningLine } from "../../src/runtime/base/soft-issue-report";
import { kindOf } from "../../src/runtime/base/value-kind";
import { harness } from "./harness";

const issue = { path: "Answer.score", rule: "@range", message: "Answer.score must be <= 10 (@range)." };

describe("§3 soft issues: one report format", () => {
  test("without a source location the line is `warning: ` and the whole sentence", () => {
    expect(softWarningLine(issue)).toBe("warning: Answer.score must be <= 10 (@range).");
  });

  test("with a location, the location ends the line in place of the sentence's period", () => {
    expect(softWarningLine(issue, "main.luma:4:3")).toBe("warning: Answer.score must be <= 10 (@range) at main.luma:4:3");
  });

  test("the validation.soft event names its source first, then path, rule and message", () => {
    const tool = softValidationEvent({ tool: "rate", agent: null }, issue);
    expect(JSON.stringify(tool)).toBe(
      '{"event":"validation.soft","tool":"rate","agent":null,"path":"Answer.score","rule":"@range","message":"Answer.score must be <= 10 (@range)."}',
    );
    const query = softValidationEvent({ query: "top", datasource: "db" }, issue);
    expect(Object.keys(query)).toEqual(["event", "query", "datasource", "path", "rule", "message"]);
  });

  test("a tool's soft output issue goes through it: the warning line and the event", async () => {
    const h = harness("schema R { score: int @range(0, 10) @severity(\"soft\") }\ntool rate(x: int) -> R {}", {
      handlers: { rate: () => ({ score: 11 }) },
    });
    expect(await h.call("rate", { x: 1 })).toEqual({ score: 11 });
    expect(h.warnings).toEqual(["warning: rate.output.score must be <= 10 (@range)."]);
    expect(h.events[0]).toEqual({
      event: "validation.soft",
      tool: "rate",
      agent: null,
      path: "rate.output.score",
      rule: "@range",
      message: "rate.output.score must be <= 10 (@range).",
    });
  });
});

describe("value kinds in messages", () => {
  const CASES: [unknown, string][] = [
    [null, "null"],
    [undefined, "nothing"],
    [[1], "an array"],
    [{ a: 1 }, "an object"],
    ["s", "a string"],
    [3, "a number"],
    [true, "a boolean"],
    [() => 1, "a function"],
  ];
  for (const [value, kind] of CASES) {
    test(`${JSON.stringify(value) ?? String(value)} is described as "${kind}", never by its value`, () => expect(kindOf(value)).toBe(kind));
  }
});

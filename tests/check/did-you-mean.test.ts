/**
 * The one "did you mean" helper (`src/check/did-you-mean.ts`), shared by the checker, the
 * config loader and `luma explain`: close slips are offered, guesses are not.
 */
import { describe, expect, test } from "bun:test";
import { closestName, didYouMean } from "../../src/diagnostics/did-you-mean";

describe("did you mean: the closest candidate by edit distance", () => {
  test.each([
    ["nmae", ["name", "age"], "name"], // a swap of neighbours is one edit
    ["greting", ["greeting", "x"], "greeting"],
    ["String", ["string", "int"], "string"], // case does not count
    ["E204", ["E0204", "E0240"], "E0204"],
    ["tool_modul", ["tool_modules", "tool_contexts"], "tool_modules"],
  ])("'%s' among %p → '%s'", (wrong, candidates, expected) => {
    expect(closestName(wrong, candidates)).toBe(expected);
  });

  test.each([
    ["x", ["A", "y"]], // every character edited: not a slip
    ["totally", ["different"]],
    ["abc", []],
  ])("no hint for '%s' among %p", (wrong, candidates) => {
    expect(closestName(wrong, candidates)).toBeUndefined();
    expect(didYouMean(wrong, candidates)).toEqual([]);
  });

  test("the hint line quotes the name", () => {
    expect(didYouMean("pritn", ["print"])).toEqual(["did you mean `print`?"]);
  });
});

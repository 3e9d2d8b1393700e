/**
 * `max_result_chars` (issue #25 §5, runtime/ask/result-cut.ts): what the model is shown of a
 * result — the first N code points of its JSON and the marker — with the edges the wire tests
 * do not reach: a result that fits exactly, characters outside the BMP (counted once, never
 * split), error results (never cut).
 */
import { describe, expect, test } from "bun:test";
import { cutForModel, cutMarker } from "../../src/runtime/ask/result-cut";
import type { ToolResult } from "../../src/runtime/providers/provider-types";

const call = { id: "c1", nativeId: true, name: "t", args: {} };
const ok = (content: unknown): ToolResult => ({ call, isError: false, content });

describe("max_result_chars: what the model is shown", () => {
  test("a result whose JSON fits (exactly, or with no limit) is sent as it is", () => {
    const r = ok({ a: "xyz" }); // {"a":"xyz"} is 11 characters
    expect(cutForModel(r, 11)).toBe(r);
    expect(cutForModel(r, undefined)).toBe(r);
    expect(cutForModel(r, 10).shown).toBe(`{"a":"xyz"… [cut: 10 of 11 characters shown]`);
  });

  test("the marker is exact: an ellipsis, then [cut: N of M characters shown]", () => {
    expect(cutMarker(40, 111)).toBe("… [cut: 40 of 111 characters shown]");
    expect(cutForModel(ok({ text: "0123456789".repeat(10) }), 40).shown).toBe(`{"text":"0123456789012345678901234567890… [cut: 40 of 111 characters shown]`);
  });

  test("a character outside the BMP counts once and is never split in half", () => {
    const r = cutForModel(ok({ e: "😀😀😀😀" }), 8); // {"e":"😀😀😀😀"} is 12 code points
    expect(r.shown).toBe(`{"e":"😀😀… [cut: 8 of 12 characters shown]`);
    expect(r.shown!.isWellFormed()).toBe(true);
  });

  test("an error result is never cut; the content itself is never changed", () => {
    const err: ToolResult = { call, isError: true, content: { error: { code: "X", message: "m".repeat(500), retryable: false } } };
    expect(cutForModel(err, 5)).toBe(err);
    const whole = ok({ text: "abcdefghij".repeat(5) });
    expect(cutForModel(whole, 5).content).toBe(whole.content);
  });
});

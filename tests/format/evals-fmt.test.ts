/**
 * `luma fmt` on eval files (issue #31 §2): `eval "name" over "data.jsonl" { … }` and
 * `score "name" expr` get the canonical layout — the names and the path as written, one
 * statement a line, two spaces of indentation — and formatting is idempotent.
 */
import { describe, expect, test } from "bun:test";
import { formatSource } from "../../src/format/format-source";

describe("luma fmt: eval blocks and scores", () => {
  test("the canonical layout, kept on a second pass", () => {
    const messy = `eval   "routes"   over  "cases.jsonl"   {\n    out = f(case.x)\n  score  "route"   out == case.y\n      score "half" 0.5 // why\n}\n`;
    const want = `eval "routes" over "cases.jsonl" {\n  out = f(case.x)\n  score "route" out == case.y\n  score "half" 0.5 // why\n}\n`;
    const once = formatSource(messy, "x.eval.luma");
    expect(once.text).toBe(want);
    expect(formatSource(want, "x.eval.luma").text).toBe(want);
  });
});

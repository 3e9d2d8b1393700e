/** The examples' own tests (`examples/*.test.luma`) pass through the binary: `luma test examples`. */
import { describe, expect, test } from "bun:test";
import { runLuma } from "./support/luma-binary";

describe("luma test examples", () => {
  test("every examples/*.test.luma passes, offline (no key), with the summary line", () => {
    const r = runLuma(["test", "examples"], { env: { OPENAI_API_KEY: undefined } });
    expect(r.stdout).not.toContain("FAIL");
    expect(r.stdout).toMatch(/^pass examples\/018_direct_tool\.test\.luma › /m);
    expect(r.stdout).toMatch(/^pass examples\/041_multi_tool_worker\.test\.luma › /m);
    expect(r.stdout).toMatch(/^\d+ passed, 0 failed\n$/m);
    expect(r.exitCode).toBe(0);
  });
});

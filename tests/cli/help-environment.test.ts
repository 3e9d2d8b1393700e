/**
 * Issue #12.13 through the real binary: `luma --help` lists every environment variable the
 * README documents (LUMA_* and OTEL_*), read from the README itself so a new one cannot be
 * documented without reaching the help. LUMA_BASE_URL_<MODEL> stands for its instances, and
 * the suite's own service URLs (LUMA_TEST_PG_URL, LUMA_TEST_REDIS_URL) are not luma's.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";

const SUITE_ONLY = new Set(["LUMA_TEST_PG_URL", "LUMA_TEST_REDIS_URL"]);

describe("issue #12.13: the help text lists the README's environment variables", () => {
  test("every LUMA_* and OTEL_* variable of the README is in luma --help", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const documented = new Set(readme.match(/\b(?:LUMA|OTEL)_[A-Z_]*[A-Z]\b/g) ?? []);
    const help = runLuma(["--help"]).stdout;
    const missing = [...documented].filter(
      (name) => !SUITE_ONLY.has(name) && !help.includes(name) && !(name.startsWith("LUMA_BASE_URL_") && help.includes("LUMA_BASE_URL_<MODEL>")),
    );
    expect(documented.has("LUMA_IDEMPOTENCY_KEY")).toBe(true);
    expect(missing).toEqual([]);
  });
});

/**
 * Issue #12.13 through the real binary: `luma --help` lists every environment variable the
 * README and docs/ document (LUMA_* and OTEL_*), read from the pages themselves so a new one
 * cannot be documented without reaching the help. LUMA_BASE_URL_<MODEL> stands for its instances, and
 * the suite's own service URLs (LUMA_TEST_PG_URL, LUMA_TEST_REDIS_URL) are not luma's.
 */
import { describe, expect, test } from "bun:test";
import { docPages } from "../support/docs-pages";
import { runLuma } from "../support/luma-binary";

const SUITE_ONLY = new Set(["LUMA_TEST_PG_URL", "LUMA_TEST_REDIS_URL"]);

describe("issue #12.13: the help text lists the environment variables the docs document", () => {
  test("every LUMA_* and OTEL_* variable of README.md and docs/ is in luma --help", () => {
    const text = docPages().map((p) => p.text).join("\n");
    const documented = new Set(text.match(/\b(?:LUMA|OTEL)_[A-Z_]*[A-Z]\b/g) ?? []);
    const help = runLuma(["--help"]).stdout;
    const missing = [...documented].filter(
      (name) => !SUITE_ONLY.has(name) && !help.includes(name) && !(name.startsWith("LUMA_BASE_URL_") && help.includes("LUMA_BASE_URL_<MODEL>")),
    );
    expect(documented.has("LUMA_IDEMPOTENCY_KEY")).toBe(true);
    expect(missing).toEqual([]);
  });
});

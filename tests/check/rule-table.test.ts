/** The rule table is the checker: every file under src/check/rules runs, exactly once. */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { RULES } from "../../src/check";

describe("§2–7 checker structure", () => {
  test("every rule file is in the ordered rule table, once", () => {
    const files = readdirSync(join(import.meta.dir, "..", "..", "src", "check", "rules"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    const names = RULES.map(([name]) => name);
    expect([...names].sort()).toEqual(files);
    expect(new Set(names).size).toBe(names.length);
  });
});

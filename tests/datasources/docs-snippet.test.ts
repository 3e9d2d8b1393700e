import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";
import { tempDir } from "./run-luma-program";

describe("README \"Databases\": the first snippet runs as written", () => {
  test("against (a copy of) examples/data/shop.db, through dist/luma", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Databases"));
    const snippet = /```luma\n([\s\S]*?)```/.exec(section)![1];
    const dir = tempDir();
    mkdirSync(join(dir, "data"));
    copyFileSync(join(REPO, "examples", "data", "shop.db"), join(dir, "data", "shop.db"));
    const file = join(dir, "main.luma");
    writeFileSync(file, `${snippet}print(len(rows), added.id > 0)\n`);
    const r = runLuma([file]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("3 true\n");
    expect(r.exitCode).toBe(0);
  });
});

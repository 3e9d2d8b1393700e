/**
 * The datasource page's first snippet — a SQLite datasource, a query and a command — is a
 * program that runs: placed beside a copy of examples/data/shop.db, it returns three rows
 * and inserts one, through the real binary.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";
import { tempDir } from "./run-luma-program";

describe("docs/datasources.md (§12): the first snippet runs as written", () => {
  test("against (a copy of) examples/data/shop.db, through dist/luma", () => {
    const page = readFileSync(join(REPO, "docs", "datasources.md"), "utf8");
    const snippet = /```luma\n([\s\S]*?)```/.exec(page)![1];
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

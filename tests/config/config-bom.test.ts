/**
 * `luma.config.json` saved with a UTF-8 byte order mark (Windows editors write one), driven
 * through `dist/luma`: the mark is not JSON, so JSON.parse alone rejected the file.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

function project(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-config-bom-"));
  writeFileSync(join(dir, "luma.config.json"), config);
  writeFileSync(join(dir, "app.luma"), 'print("hi")\n');
  return dir;
}

describe("§10 luma.config.json may open with a UTF-8 byte order mark", () => {
  test("a config with a BOM is read as without it", () => {
    const r = runLuma(["app.luma"], { cwd: project('\uFEFF{ "tool_modules": [] }\n') });
    expect(r).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
  }, 30_000);

  test("its problems are still found, located as an editor counts lines and columns (the BOM not counted)", () => {
    const r = runLuma(["app.luma"], { cwd: project('\uFEFF{\n  "tool_modules": [,]\n}\n') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith("Error: luma.config.json:2:20: invalid JSON: expected a value\n");
  }, 30_000);

  test("a key it does not know is still named", () => {
    const r = runLuma(["app.luma"], { cwd: project('\uFEFF{ "tool_modulez": [] }') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown key 'tool_modulez'");
  }, 30_000);
});

/** `luma fmt [--check] PATH…` through the real `dist/luma` binary (issue #17 item 3). */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const UGLY = `schema Note { id: int  title: string }\nx  =  { id: 1, title: "a" }   // the note\nprint( x.title )\n`;
const PRETTY = `schema Note {\n  id: int\n  title: string\n}\nx = { id: 1, title: "a" } // the note\nprint(x.title)\n`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-fmt-"));
  mkdirSync(join(dir, "sub"));
  mkdirSync(join(dir, ".hidden"));
  writeFileSync(join(dir, "a.luma"), UGLY);
  writeFileSync(join(dir, "sub", "b.luma"), PRETTY);
  writeFileSync(join(dir, "sub", "c.luma"), UGLY);
  writeFileSync(join(dir, ".hidden", "d.luma"), UGLY);
  writeFileSync(join(dir, "notes.txt"), UGLY);
  return dir;
}

describe("luma fmt --check", () => {
  test("exits 1 and lists the files that would change, writing nothing", () => {
    const dir = project();
    const r = runLuma(["fmt", "--check", "."], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("a.luma\nsub/c.luma\n");
    expect(readFileSync(join(dir, "a.luma"), "utf8")).toBe(UGLY);
  });

  test("exits 0 with no output when every file is formatted", () => {
    const dir = project();
    const r = runLuma(["fmt", "--check", "sub/b.luma"], { cwd: dir });
    expect(r).toEqual({ exitCode: 0, stdout: "", stderr: "" });
  });

  test("the repository's examples are formatted (what CI runs)", () => {
    const r = runLuma(["fmt", "--check", "examples"]);
    expect(r.stdout).toBe("");
    expect(r.exitCode).toBe(0);
  });
});

describe("luma fmt", () => {
  test("rewrites the .luma files of a directory (hidden ones aside) and then --check passes", () => {
    const dir = project();
    const r = runLuma(["fmt", "."], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("formatted a.luma\nformatted sub/c.luma\n");
    expect(readFileSync(join(dir, "a.luma"), "utf8")).toBe(PRETTY);
    expect(readFileSync(join(dir, ".hidden", "d.luma"), "utf8")).toBe(UGLY);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe(UGLY);
    expect(readdirSync(dir).filter((f) => f.includes("tmp"))).toEqual([]);
    expect(runLuma(["fmt", "--check", "."], { cwd: dir }).exitCode).toBe(0);
    const run = runLuma(["a.luma"], { cwd: dir });
    expect(run.stdout).toBe("a\n");
  });

  test("- formats stdin to stdout", () => {
    const r = runLuma(["fmt", "-"], { stdin: UGLY });
    expect(r).toEqual({ exitCode: 0, stdout: PRETTY, stderr: "" });
  });

  test("a file that does not parse is left as it is, reported with file:line:col (exit 2); the others are formatted", () => {
    const dir = project();
    const broken = `x = 1\ny = (2 +\n`;
    writeFileSync(join(dir, "broken.luma"), broken);
    const r = runLuma(["fmt", "a.luma", "broken.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("broken.luma:3:1: error");
    expect(r.stderr).not.toContain("    at ");
    expect(readFileSync(join(dir, "broken.luma"), "utf8")).toBe(broken);
    expect(readFileSync(join(dir, "a.luma"), "utf8")).toBe(PRETTY);
  });

  test("a missing file is a clear error naming it (E0610)", () => {
    const r = runLuma(["fmt", "no-such.luma"], { cwd: mkdtempSync(join(tmpdir(), "luma-fmt-")) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("cannot read no-such.luma: no such file");
    expect(r.stderr).toContain("E0610");
  });

  test.skipIf(process.getuid?.() === 0)("a file it cannot replace is left intact (E0614), with no temporary file behind", () => {
    const dir = project();
    chmodSync(dir, 0o555);
    try {
      const r = runLuma(["fmt", "a.luma"], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("cannot write a.luma");
      expect(r.stderr).toContain("E0614");
      expect(readFileSync(join(dir, "a.luma"), "utf8")).toBe(UGLY);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  test("usage errors exit 64: no path, an unknown option", () => {
    expect(runLuma(["fmt"]).exitCode).toBe(64);
    const r = runLuma(["fmt", "--fix", "a.luma"]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain("unknown option --fix for luma fmt");
  });

  test("--help lists luma fmt", () => {
    expect(runLuma(["--help"]).stdout).toContain("luma fmt [--check] PATH…");
  });
});

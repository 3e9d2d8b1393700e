/**
 * Issue #28 §3, through the real `dist/luma`: read_file, list_dir and write_file of
 * `luma:std` (docs/language/std-tools.md) — their results, write_file's idempotency by
 * request_id, and their confinement under `std.files_root` tried as an attacker would:
 * `..`, absolute paths, a NUL byte, a symlink out (one created after `luma check` too),
 * a symlink at the write target. A refusal is TOOL_PERMISSION_DENIED naming the key.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attempt, luma, project } from "./std-project";

const IMPORT = `import { read_file, list_dir, write_file, StdFile } from "luma:std"\n`;

describe("the file tools do their job under the files root", () => {
  test("read_file gives path, text and bytes; list_dir names, kinds and sizes; write_file writes", async () => {
    const dir = project({
      "notes/a.txt": "héllo\n",
      "notes/sub/b.txt": "b",
      "main.luma": `${IMPORT}f: StdFile = tool read_file({ path: "notes/a.txt" })
print("{f.path} {f.bytes} {f.text}")
l = tool list_dir({ path: "notes" })
for e in l.entries {
  print("{e.name} {e.kind} {e.bytes}")
}
w = tool write_file({ path: "notes/out.txt", text: "written", request_id: "w-1" })
print(w)
`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('notes/a.txt 7 héllo\n\na.txt file 7\nsub dir 0\n{"path":"notes/out.txt","bytes":7}\n');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, "notes/out.txt"), "utf8")).toBe("written");
  });

  test("write_file runs once per request_id: the same call again writes nothing; another text under it is a conflict", async () => {
    const dir = project({
      "main.luma": `${IMPORT}tool write_file({ path: "o.txt", text: "first", request_id: "a" })
tool write_file({ path: "o.txt", text: "second", request_id: "b" })
again = tool write_file({ path: "o.txt", text: "first", request_id: "a" })
print(again)
print(tool read_file({ path: "o.txt" }).text)
${attempt('tool write_file({ path: "o.txt", text: "third", request_id: "a" })')}`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim().split("\n")).toEqual([
      '{"path":"o.txt","bytes":5}',
      "second",
      "TOOL_IDEMPOTENCY_CONFLICT: Tool 'write_file' was called again with the same idempotency key (request_id) and a different input.",
    ]);
  });

  test("a missing file, a directory, a file over 1 MiB and non-UTF-8 bytes are STD_FILE_ERROR", async () => {
    const dir = project({
      "main.luma": `${IMPORT}${attempt('tool read_file({ path: "nope.txt" })')}${attempt('tool read_file({ path: "d" })')}${attempt('tool read_file({ path: "big.txt" })')}${attempt('tool read_file({ path: "bin.dat" })')}${attempt('tool list_dir({ path: "bin.dat" })')}`,
    });
    mkdirSync(join(dir, "d"));
    writeFileSync(join(dir, "big.txt"), "x".repeat(1_048_577));
    writeFileSync(join(dir, "bin.dat"), new Uint8Array([0xff, 0xfe, 0x00]));
    const r = await luma(["main.luma"], dir);
    expect(r.stdout.trim().split("\n")).toEqual([
      `STD_FILE_ERROR: Tool 'read_file': "nope.txt" does not exist.`,
      `STD_FILE_ERROR: Tool 'read_file': "d" is a directory (list_dir lists one).`,
      `STD_FILE_ERROR: Tool 'read_file': "big.txt" is 1048577 bytes, more than the 1048576 read_file reads.`,
      `STD_FILE_ERROR: Tool 'read_file': "bin.dat" is not UTF-8 text.`,
      `STD_FILE_ERROR: Tool 'list_dir': "bin.dat" is not a directory.`,
    ]);
  });
});

describe("confinement: nothing outside std.files_root is read, listed or written", () => {
  const denied = (tool: string, what: string) => `TOOL_PERMISSION_DENIED: Tool '${tool}' refused ${what}: see luma.config.json 'std.files_root'.`;

  test("`..`, absolute paths and a NUL byte are refused before the disk is touched", async () => {
    const dir = project({
      "root/in.txt": "in",
      "secret.txt": "SECRET",
      "luma.config.json": JSON.stringify({ std: { files_root: "root" } }),
      "main.luma": `${IMPORT}${attempt('tool read_file({ path: "../secret.txt" })')}${attempt('tool read_file({ path: "a/../../secret.txt" })')}${attempt('tool list_dir({ path: ".." })')}${attempt('tool read_file({ path: "/etc/passwd" })')}nul = json_parse("\\"in.txt\\\\u0000.png\\"")\n${attempt('tool read_file({ path: nul })')}${attempt('tool write_file({ path: "../escape.txt", text: "x", request_id: "1" })')}${attempt('tool read_file({ path: "in.txt" }).text')}`,
    });
    const r = await luma(["main.luma"], dir);
    expect(r.stdout.trim().split("\n")).toEqual([
      denied("read_file", `the path "../secret.txt" (it leaves files_root through "..")`),
      denied("read_file", `the path "a/../../secret.txt" (it leaves files_root through "..")`),
      denied("list_dir", `the path ".." (it leaves files_root through "..")`),
      denied("read_file", `the absolute path "/etc/passwd" (paths are relative to files_root)`),
      denied("read_file", `the path "in.txt\\u0000.png" (it holds a NUL byte)`),
      denied("write_file", `the path "../escape.txt" (it leaves files_root through "..")`),
      "in",
    ]);
    expect(r.stdout).not.toContain("SECRET");
    expect(existsSync(join(dir, "escape.txt"))).toBe(false);
  });

  test("a symlink leading out of the root is refused — also one created after `luma check`", async () => {
    const dir = project({
      "outside/secret.txt": "SECRET",
      "root/ok.txt": "ok",
      "luma.config.json": JSON.stringify({ std: { files_root: "./root" } }),
      "main.luma": `${IMPORT}${attempt('tool read_file({ path: "link.txt" })')}${attempt('tool list_dir({ path: "linkdir" })')}${attempt('tool read_file({ path: "linkdir/secret.txt" })')}${attempt('tool write_file({ path: "linkdir/new.txt", text: "x", request_id: "1" })')}`,
    });
    const check = await luma(["check", "main.luma"], dir);
    expect(check.exitCode).toBe(0);
    // Created after the check: nothing about paths is decided before the call.
    symlinkSync(join(dir, "outside/secret.txt"), join(dir, "root/link.txt"));
    symlinkSync(join(dir, "outside"), join(dir, "root/linkdir"));
    const r = await luma(["main.luma"], dir);
    const out = "(a symlink leads out of files_root)";
    expect(r.stdout.trim().split("\n")).toEqual([
      denied("read_file", `the path "link.txt" ${out}`),
      denied("list_dir", `the path "linkdir" ${out}`),
      denied("read_file", `the path "linkdir/secret.txt" ${out}`),
      denied("write_file", `the path "linkdir/new.txt" ${out}`),
    ]);
    expect(existsSync(join(dir, "outside/new.txt"))).toBe(false);
  });

  test("write_file replaces a symlink at its target instead of writing through it; list_dir shows a symlink as other", async () => {
    const dir = project({
      "outside/victim.txt": "untouched",
      "main.luma": `${IMPORT}tool write_file({ path: "root/victim.txt", text: "new", request_id: "1" })
l = tool list_dir({ path: "root" })
print(l.entries)
print(tool read_file({ path: "root/victim.txt" }).text)
`,
    });
    mkdirSync(join(dir, "root"));
    symlinkSync(join(dir, "outside/victim.txt"), join(dir, "root/victim.txt"));
    symlinkSync(join(dir, "outside"), join(dir, "root/away"));
    const r = await luma(["main.luma"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('[{"name":"away","kind":"other","bytes":0},{"name":"victim.txt","kind":"file","bytes":3}]\nnew\n');
    expect(readFileSync(join(dir, "outside/victim.txt"), "utf8")).toBe("untouched");
  });

  test("a symlink inside the root to a file inside it is followed", async () => {
    const dir = project({ "data/real.txt": "real", "main.luma": `${IMPORT}print(tool read_file({ path: "alias.txt" }).text)\n` });
    symlinkSync(join(dir, "data/real.txt"), join(dir, "alias.txt"));
    const r = await luma(["main.luma"], dir);
    expect(r.stdout).toBe("real\n");
  });

  test("files_root is relative to the config file, and must be an existing directory (E1301)", async () => {
    const dir = project({
      "conf/luma.config.json": JSON.stringify({ std: { files_root: "../data" } }),
      "data/x.txt": "from data",
      "app/main.luma": `${IMPORT}print(tool read_file({ path: "x.txt" }).text)\n`,
      "bad.json": JSON.stringify({ std: { files_root: "./no-such-dir" } }),
    });
    const ok = await luma(["app/main.luma", "--config", "conf/luma.config.json"], dir);
    expect(ok.stdout).toBe("from data\n");
    const bad = await luma(["app/main.luma", "--config", "bad.json"], dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`'std.files_root' is not a directory: ${join(dir, "no-such-dir")}.`);
    expect(bad.stderr).toContain("E1301");
  });
});

/**
 * Hardening round 3, item 8, through `dist/luma build` and the built file:
 *
 * - a built agent verifies its embedded payload against its manifest before running
 *   anything: an attacker's same-length edit of the embedded module text (so the file still
 *   starts and `--luma-manifest` still prints the original sha256) is refused, exit 2, and the
 *   injected code never runs;
 * - `luma build` refuses a literal store, journal, datasource or MCP URL with a password
 *   (it would sit in the executable's bytes) and points to `url_env` — nothing is written.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { isolate, removeAll, runIsolated, tempDir, type Isolated } from "./built-agent-support";

const PROGRAM = "schema Out { value: string }\ntool probe() -> Out {}\nr = tool probe({})\nprint(r.value)\n";
// Two spellings of one length: the attacker's edit keeps every offset of the file.
const ORIGINAL = "original-answer-4f1c";
const INJECTED = "injected-answer-9d2e";
const MODULE = `module.exports = { probe: () => ({ value: "${ORIGINAL}" }) };\n`;

let project: string;
let built: Isolated | undefined;
let buildRun: ReturnType<typeof runLuma>;

beforeAll(() => {
  project = tempDir("luma-build-integrity-");
  writeFileSync(join(project, "main.luma"), PROGRAM);
  writeFileSync(join(project, "tool.cjs"), MODULE);
  buildRun = runLuma(["build", "main.luma", "--tool-module", "./tool.cjs", "-o", "agent"], { cwd: project });
  if (buildRun.exitCode === 0) built = isolate(join(project, "agent"));
}, 180_000);

afterAll(() => removeAll(project, ...(built ? [built.dir, built.path] : [])));

/** Replaces every occurrence of `from` by `to` (same length) in the file's bytes; returns how many. */
function patchBytes(file: string, from: string, to: string): number {
  expect(to.length).toBe(from.length);
  const bytes = readFileSync(file);
  const needle = Buffer.from(from);
  let count = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) {
    bytes.write(to, at);
    count++;
  }
  writeFileSync(file, bytes);
  return count;
}

describe("a built agent refuses a payload that does not match its manifest", () => {
  test("unmodified, it runs and its manifest carries the payload's sha256", () => {
    expect(buildRun.stderr).toBe("");
    expect(buildRun.exitCode).toBe(0);
    const run = runIsolated(built!, []);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(`${ORIGINAL}\n`);
    expect(run.exitCode).toBe(0);
    const manifest = JSON.parse(runIsolated(built!, ["--luma-manifest"]).stdout);
    expect(manifest.payload_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.modules[0].bundled_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test("a same-length edit of the embedded module text is refused before it runs (exit 2)", () => {
    const copy = isolate(built!.bin);
    try {
      expect(patchBytes(copy.bin, ORIGINAL, INJECTED)).toBeGreaterThan(0);
      const run = runIsolated(copy, []);
      expect(run.stdout).toBe("");
      expect(run.stdout + run.stderr).not.toContain(INJECTED);
      expect(run.stderr).toMatch(
        /^Error: this executable was modified after 'luma build': its embedded payload's sha256 is [0-9a-f]{64}, not the [0-9a-f]{64} it was built with\. Refusing to run it; build it again from its sources\.\n {2}= code E0708/,
      );
      expect(run.exitCode).toBe(2);
      // Its manifest is not printed either: it would name code that is not what the file holds.
      const manifest = runIsolated(copy, ["--luma-manifest"]);
      expect(manifest.stdout).toBe("");
      expect(manifest.stderr).toContain("code E0708");
      expect(manifest.exitCode).toBe(2);
    } finally {
      removeAll(copy.dir, copy.path);
    }
  });

  test("an edit that also rewrites the outer digest is still caught by the module's bundled_sha256", () => {
    const copy = isolate(built!.bin);
    try {
      const manifest = JSON.parse(runIsolated(copy, ["--luma-manifest"]).stdout);
      patchBytes(copy.bin, ORIGINAL, INJECTED);
      // The attacker recomputes the payload digest: the sealed text is read back out of the
      // file (the entry's `{json:'…',sha256:"…"}`, a JavaScript string literal) and hashed.
      const bytes = readFileSync(copy.bin);
      const text = bytes.toString("latin1");
      const tail = text.indexOf(`sha256:"${manifest.payload_sha256}"`);
      expect(tail).toBeGreaterThan(-1);
      const head = text.lastIndexOf("json:", tail);
      const literal = bytes.subarray(head + "json:".length, text.lastIndexOf(",", tail)).toString("utf8");
      const json = new Function(`return ${literal}`)() as string;
      const newDigest = new Bun.CryptoHasher("sha256").update(json).digest("hex");
      expect(patchBytes(copy.bin, manifest.payload_sha256, newDigest)).toBeGreaterThan(0);
      const run = runIsolated(copy, []);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(
        "this executable was modified after 'luma build': the embedded text of tool module './tool.cjs' does not match the manifest's bundled_sha256",
      );
      expect(run.exitCode).toBe(2);
    } finally {
      removeAll(copy.dir, copy.path);
    }
  });
});

describe("luma build refuses a literal URL with a password (it would be embedded)", () => {
  const PASSWORD = "s3cret-pw-71b2";

  const refusedBuild = (files: Record<string, string>, args: string[] = []) => {
    const dir = tempDir("luma-build-url-");
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const r = runLuma(["build", "main.luma", ...args, "-o", "agent"], { cwd: dir });
      return { ...r, wrote: existsSync(join(dir, "agent")) };
    } finally {
      removeAll(dir);
    }
  };

  test("an idempotency store and a journal URL with a password in luma.config.json: refused, naming both keys and url_env", () => {
    const config = {
      tool_modules: [],
      idempotency_store: { backend: "postgres", url: `postgres://app:${PASSWORD}@127.0.0.1:5432/app` },
      journal: { backend: "postgres", url: `postgres://127.0.0.1/app?password=${PASSWORD}` },
    };
    const r = refusedBuild({ "main.luma": 'print("hi")\n', "luma.config.json": JSON.stringify(config) });
    expect(r.stderr).toBe(
      "Error: luma build: a literal URL with a password would be embedded in the executable (everything in the config and the program is); refusing to build:\n" +
        '  luma.config.json: idempotency_store.url: put the URL in an environment variable and name it with "url_env"\n' +
        '  luma.config.json: journal.url: put the URL in an environment variable and name it with "url_env"\n' +
        "  = code E0709 (luma explain E0709)\n",
    );
    expect(r.exitCode).toBe(2);
    expect(r.wrote).toBe(false);
  });

  test("a datasource url with a password in the program: refused at its position; without a password it builds", () => {
    const program = (url: string) => `datasource Db {\n  url: "${url}"\n}\nprint("hi")\n`;
    const r = refusedBuild({ "main.luma": program(`postgres://app:${PASSWORD}@db.internal/app`) });
    expect(r.stderr).toContain('  main.luma:2:8: datasource Db url: put the URL in an environment variable and name it with "url_env"\n');
    expect(r.stderr).toContain("code E0709");
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.exitCode).toBe(2);
    expect(r.wrote).toBe(false);
    const fine = refusedBuild({ "main.luma": program("postgres://app@db.internal/app") });
    expect(fine.stderr).toBe("");
    expect(fine.exitCode).toBe(0);
    expect(fine.wrote).toBe(true);
  }, 120_000);
});

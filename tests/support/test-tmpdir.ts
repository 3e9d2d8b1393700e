/**
 * Preloaded by `bun test` (bunfig.toml): every temporary directory a test makes — projects,
 * journals, sockets, the files its `dist/luma` children write — goes under one directory of
 * this test process, removed once its tests have run. Without it a day of runs filled the
 * disk with `luma-*` directories (a test that fails before its cleanup never removes its own).
 * Under `bun test --parallel` (`bun run test`) each file runs in a fresh global, so this runs
 * again per file: one directory per file, removed when that file is done.
 *
 * `os.tmpdir()` reads TMPDIR at each call, and the children inherit it. The name is short:
 * Unix socket paths (the MCP and serve tests) have a limit of about 100 bytes.
 */
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = mkdtempSync(join(tmpdir(), "lt-"));
process.env.TMPDIR = root;
// A preloaded file's afterAll runs after the last test of the run — of the file, under
// --parallel (bun test fires no "exit" event here).
afterAll(() => rmSync(root, { recursive: true, force: true }));

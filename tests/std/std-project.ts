/** Test support for tests/std: a temporary project on disk, and `dist/luma` run in it without blocking. */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureBinary, type LumaRun } from "../support/luma-binary";

/** A temporary directory holding each path (relative, `/` separated) with its text; its real path. */
export function project(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "luma-std-")));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** `dist/luma ARGS` in `cwd`, as a child that lets this process's HTTP test server answer. */
export async function luma(args: string[], cwd: string, env: Record<string, string> = {}, bin?: string): Promise<LumaRun> {
  const proc = Bun.spawn([bin ?? ensureBinary(), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { exitCode, stdout, stderr };
}

/** A statement that prints a caught error's code and message, or the value. */
export const attempt = (call: string): string => `try {\n  r = ${call}\n  print(r)\n} catch e {\n  print("{e.code}: {e.message}")\n}\n`;

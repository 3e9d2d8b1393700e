/**
 * Test support for threads (issue #26 §1): a project directory with a program, a tool module
 * and optionally a luma.config.json, run through the real `dist/luma` against the fake provider.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";

export const TOOLS = `export const lumaTools = { lookup_order: (i: { id: number }) => ({ id: i.id, status: "shipped" }), issue_refund: () => ({ ok: true }) };\n`;

export function project(source: string, config?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-threads-"));
  writeFileSync(join(dir, "main.luma"), source);
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  if (config) writeFileSync(join(dir, "luma.config.json"), JSON.stringify(config));
  return dir;
}

export interface Ran {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** `luma <args>` in `dir` (the tool module added to a run of main.luma), with `env` on top of a clean one. */
export async function luma(dir: string, args: string[], env: Record<string, string | undefined> = {}, stdin?: string): Promise<Ran> {
  const p = Bun.spawn([ensureBinary(), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env },
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, exitCode };
}

export const run = (dir: string, env: Record<string, string | undefined>, extra: string[] = []) =>
  luma(dir, [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), ...extra], env);

/**
 * Test support for `luma build`: build through `dist/luma`, then run the output the way the
 * issue's "Done when" says — copied alone into an empty directory, with a PATH that holds no
 * `bun` (an empty directory), no node_modules, none of the sources.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { runLuma, type LumaRun } from "../support/luma-binary";

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/** `luma build ARGS…` from the repository root. */
export const lumaBuild = (args: string[], env: Record<string, string | undefined> = {}): LumaRun => runLuma(["build", ...args], { env });

export interface Isolated {
  dir: string;
  bin: string;
  /** An empty directory: PATH holds nothing, no `bun` in particular. */
  path: string;
}

/** Copies the built file alone into a fresh empty directory. */
export function isolate(built: string): Isolated {
  const dir = tempDir("luma-agent-run-");
  const bin = join(dir, basename(built));
  copyFileSync(built, bin);
  return { dir, bin, path: tempDir("luma-empty-path-") };
}

export function runIsolated(agent: Isolated, args: string[], env: Record<string, string> = {}): LumaRun {
  const r = Bun.spawnSync([agent.bin, ...args], {
    cwd: agent.dir,
    env: { PATH: agent.path, HOME: agent.dir, NO_COLOR: "1", LUMA_NO_CACHE: "1", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

export const removeAll = (...dirs: string[]) => dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));

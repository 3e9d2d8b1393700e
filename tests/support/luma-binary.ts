/**
 * Test support: the built `dist/luma` binary, built once if missing, and a runner that
 * drives it like a user would (real process, real files, exit codes).
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export const REPO = resolve(import.meta.dir, "../..");
export const LUMA_BIN = resolve(REPO, "dist/luma");

/** Newest modification time of the sources the binary is built from. */
function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Held while one test process builds: `bun run test` runs files in several processes
 * (--parallel), and two builds writing dist/luma at once would leave neither binary whole.
 */
const BUILD_LOCK = join(REPO, "dist", ".luma-build.lock");
/** A lock older than a build can take was left by a process that died mid-build. */
const STALE_LOCK_MS = 5 * 60_000;

function withBuildLock(work: () => void): void {
  mkdirSync(dirname(BUILD_LOCK), { recursive: true });
  for (;;) {
    try {
      closeSync(openSync(BUILD_LOCK, "wx"));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      try {
        if (Date.now() - statSync(BUILD_LOCK).mtimeMs > STALE_LOCK_MS) rmSync(BUILD_LOCK, { force: true });
      } catch {
        // released meanwhile
      }
      Bun.sleepSync(200);
    }
  }
  try {
    work();
  } finally {
    rmSync(BUILD_LOCK, { force: true });
  }
}

let built = false;
/** Builds dist/luma when it is missing or older than src/ or grammar.ohm (a stale binary would test old code). */
export function ensureBinary(): string {
  const stale = () =>
    !existsSync(LUMA_BIN) ||
    statSync(LUMA_BIN).mtimeMs < Math.max(newestSourceMtime(join(REPO, "src")), statSync(join(REPO, "grammar.ohm")).mtimeMs);
  if (!built && stale()) {
    // Checked again under the lock: another test process may have just built it.
    withBuildLock(() => {
      if (!stale()) return;
      const r = Bun.spawnSync(["bun", "build.ts"], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(`bun run build failed:\n${r.stderr.toString()}`);
    });
  }
  built = true;
  return LUMA_BIN;
}

export interface LumaRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function runLuma(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string; bin?: string } = {},
): LumaRun {
  const bin = opts.bin ?? ensureBinary();
  const r = Bun.spawnSync([bin, ...args], {
    cwd: opts.cwd ?? REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...opts.env },
    stdin: opts.stdin !== undefined ? new TextEncoder().encode(opts.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/**
 * `dist/luma` as a child process that does not block this one: for tests whose in-process
 * servers (the fake provider) must answer while it runs. Same environment as `runLuma`.
 */
export async function runLumaAsync(args: string[], env: Record<string, string | undefined> = {}): Promise<LumaRun> {
  const proc = Bun.spawn([ensureBinary(), ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { exitCode, stdout, stderr };
}

/**
 * Runs a Luma program in-process through the library API (`runFile`: load, check,
 * startup, run), in a fresh temp directory with optional tool-module files, and collects
 * what a user would see: printed lines, warning lines, the thrown LumaError and the trace.
 */
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFile } from "../../src/index";
import { LumaError } from "../../src/diagnostics/luma-error";

export interface ProgramRun {
  dir: string;
  out: string[];
  err: string[];
  error?: LumaError;
  trace: Record<string, unknown>[];
}

export interface ProgramOptions {
  /** Extra files (name → text) written beside the program, e.g. `tools.ts`. */
  files?: Record<string, string>;
  /** Tool modules to load (names among `files`). */
  modules?: string[];
  env?: Record<string, string | undefined>;
  /** Run in this directory instead of a fresh one. */
  dir?: string;
  interactive?: boolean;
}

export const tempDir = (): string => mkdtempSync(join(tmpdir(), "luma-ds-"));

export async function runProgram(source: string, opts: ProgramOptions = {}): Promise<ProgramRun> {
  const dir = opts.dir ?? tempDir();
  for (const [name, text] of Object.entries(opts.files ?? {})) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, "main.luma"), source);
  const run: ProgramRun = { dir, out: [], err: [], trace: [] };
  const tracePath = join(dir, "trace.jsonl");
  try {
    await runFile({
      file: join(dir, "main.luma"),
      args: [],
      toolModules: (opts.modules ?? []).map((m) => join(dir, m)),
      trace: tracePath,
      cwd: dir,
      env: { LUMA_NO_CACHE: "1", ...opts.env },
      stdout: (l) => run.out.push(l),
      stderr: (l) => run.err.push(l),
      interactive: opts.interactive ?? false,
    });
  } catch (e) {
    if (!(e instanceof LumaError)) throw e;
    run.error = e;
  }
  if (existsSync(tracePath)) {
    run.trace = readFileSync(tracePath, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  }
  return run;
}

/** The events of one kind, e.g. `query.call`. */
export const eventsOf = (run: ProgramRun, event: string) => run.trace.filter((e) => e.event === event);

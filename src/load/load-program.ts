/**
 * Stage one and two of every command: read the file, parse it, check it.
 *
 * The parser and checker are imported lazily: a program found in the checked-program cache
 * never loads ohm-js or the grammar at all, which is most of Luma's start-up time.
 */
import { readFileSync } from "node:fs";
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic";
import { startupError } from "../diagnostics/luma-error";
import type { Program } from "../syntax/ast";
import { cacheKey, openProgramCache } from "./checked-program-cache";

export interface LoadedProgram {
  program: Program;
  source: string;
  /** Warnings from the checker (errors reject the program). */
  diagnostics: Diagnostic[];
  fromCache: boolean;
}

export function readSource(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message;
    throw startupError(`cannot read ${file}: ${reason}`, { catalogCode: "E0610" });
  }
}

/**
 * Parse and check `file` (named in spans as given). Throws a startup LumaError carrying
 * the diagnostics when the program is rejected.
 */
export async function loadProgram(
  file: string,
  opts: { env?: Record<string, string | undefined>; source?: string } = {},
): Promise<LoadedProgram> {
  const source = opts.source ?? readSource(file);
  const cache = openProgramCache(opts.env ?? process.env);
  const key = cache ? cacheKey(file, source) : "";
  const cached = cache?.get(key);
  if (cached) return { program: cached, source, diagnostics: [], fromCache: true };

  const parsed = await parseOrReject(file, source);
  const diagnostics = await checkOrReject(file, parsed);
  // Only clean programs are cached: a warning must be shown on every run.
  if (cache && diagnostics.length === 0) cache.set(key, parsed);
  return { program: parsed, source, diagnostics, fromCache: false };
}

/**
 * `luma check`: the checker's warnings for `file`, or a startup error carrying its errors.
 * A program the cache holds checked clean and has none: its entry is not even read.
 */
export async function checkProgram(file: string, opts: { env?: Record<string, string | undefined>; source?: string } = {}): Promise<Diagnostic[]> {
  const source = opts.source ?? readSource(file);
  if (openProgramCache(opts.env ?? process.env)?.has(cacheKey(file, source))) return [];
  return (await loadProgram(file, { ...opts, source })).diagnostics;
}

/** The parsed program, or a startup error carrying the syntax errors. */
export async function parseOrReject(file: string, source: string): Promise<Program> {
  const { parse } = await import("../syntax/parse");
  const parsed = parse(source, file);
  if (!parsed.program || hasErrors(parsed.diagnostics)) {
    throw startupError(`${file}: the program has syntax errors`, { diagnostics: parsed.diagnostics });
  }
  return parsed.program;
}

/** The checker's warnings, or a startup error carrying its errors. */
export async function checkOrReject(file: string, program: Program): Promise<Diagnostic[]> {
  const { check } = await import("../check/index");
  const diagnostics = check(program);
  if (hasErrors(diagnostics)) {
    const count = diagnostics.filter((d) => d.severity === "error").length;
    throw startupError(`${file}: ${count} error${count === 1 ? "" : "s"} found by the checker`, { diagnostics });
  }
  return diagnostics;
}

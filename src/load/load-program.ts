/**
 * Stage one and two of every command: read the file, parse it, check it. A file with
 * `import` lines is read with every file it imports and linked into one program first
 * (`parseLinked`; docs/language/imports.md), and the cache key covers all of their texts.
 *
 * The parser and checker are imported lazily: a program found in the checked-program cache
 * never loads ohm-js or the grammar at all, which is most of Luma's start-up time.
 */
import { readFileSync } from "node:fs";
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic";
import { startupError } from "../diagnostics/luma-error";
import type { Program } from "../syntax/ast";
import { cacheKey, openProgramCache } from "./checked-program-cache";
import { importedTextsForKey } from "./import-graph";

/** What loading takes besides the file: the environment (the cache's place), the text, the memo of texts read. */
export interface LoadOptions {
  env?: Record<string, string | undefined>;
  source?: string;
  /** Filled with every imported file's text, so diagnostics in those files render with their lines. */
  sources?: Map<string, string>;
}

/** The cache key of a program: its file and text, and the texts of every file it imports. */
export const programCacheKey = (file: string, source: string): string => cacheKey(file, source + importedTextsForKey(file, source));

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
export async function loadProgram(file: string, opts: LoadOptions = {}): Promise<LoadedProgram> {
  const source = opts.source ?? readSource(file);
  const cache = openProgramCache(opts.env ?? process.env);
  const key = cache ? programCacheKey(file, source) : "";
  const cached = cache?.get(key);
  if (cached) {
    // Diagnostics of a later run (a runtime error's line) may point into an imported file.
    if (cached.linked && opts.sources) for (const f of cached.linked.slice(1)) keepText(f.file, opts.sources);
    return { program: cached, source, diagnostics: [], fromCache: true };
  }

  const linked = await parseLinked(file, source, opts.sources);
  const diagnostics = await checkOrReject(file, linked);
  // Every file is checked whole; what runs is what the main file reaches (check/imports/link-program.ts).
  const parsed = linked.linked ? (await import("../check/imports/link-program")).reachedProgram(linked) : linked;
  // Only clean programs are cached: a warning must be shown on every run.
  if (cache && diagnostics.length === 0) cache.set(key, parsed);
  return { program: parsed, source, diagnostics, fromCache: false };
}

/**
 * `luma check`: the checker's warnings for `file`, or a startup error carrying its errors.
 * A program the cache holds checked clean and has none: its entry is not even read.
 */
export async function checkProgram(file: string, opts: LoadOptions = {}): Promise<Diagnostic[]> {
  const source = opts.source ?? readSource(file);
  if (openProgramCache(opts.env ?? process.env)?.has(programCacheKey(file, source))) return [];
  return (await loadProgram(file, { ...opts, source })).diagnostics;
}

/** The parsed program, or a startup error carrying the syntax errors. */
export async function parseOrReject(file: string, source: string): Promise<Program> {
  const { parse } = await import("../syntax/parse");
  return rejectSyntaxErrors(file, parse(source, file));
}

function rejectSyntaxErrors(file: string, parsed: { program?: Program; diagnostics: Diagnostic[] }): Program {
  if (!parsed.program || hasErrors(parsed.diagnostics)) {
    throw startupError(`${file}: the program has syntax errors`, { diagnostics: parsed.diagnostics });
  }
  return parsed.program;
}

/**
 * The program of `file` and every file it imports, linked into one (`check/imports/`), or
 * a startup error carrying the syntax errors of any of them or the import errors. A file
 * without `import` lines is just parsed.
 */
export async function parseLinked(file: string, source: string, sources?: Map<string, string>): Promise<Program> {
  const main = await parseOrReject(file, source);
  if (!main.imports) return main;
  const { collectProgramFiles } = await import("../check/imports/collect-files");
  const { parse } = await import("../syntax/parse");
  const read = (f: string): string => {
    const text = readFileSync(f, "utf8");
    sources?.set(f, text);
    return text;
  };
  const graph = collectProgramFiles(main, read, (f, text) => {
    // A built-in module (luma:std) is parsed from the binary's text: kept so a diagnostic there renders its line.
    if (!sources?.has(f)) sources?.set(f, text);
    return rejectSyntaxErrors(f, parse(text, f));
  });
  // Linked even when a file is missing: the names of the imports that did load are judged too.
  const { linkProgram } = await import("../check/imports/link-program");
  const linked = linkProgram(graph.files);
  const order = new Map(graph.files.map((f, i) => [f.file, i]));
  const place = (d: Diagnostic) => [order.get(d.span?.file ?? "") ?? 0, d.span?.start ?? 0] as const;
  const errors = [...graph.diagnostics, ...linked.diagnostics].sort((a, b) => place(a)[0] - place(b)[0] || place(a)[1] - place(b)[1]);
  if (errors.length > 0) throw importErrors(file, errors);
  return linked.program;
}

function importErrors(file: string, diagnostics: Diagnostic[]) {
  const count = diagnostics.length;
  return startupError(`${file}: ${count} import error${count === 1 ? "" : "s"}`, { diagnostics });
}

/** Keeps a file's text for rendering, when it can still be read. */
function keepText(file: string, sources: Map<string, string>): void {
  if (sources.has(file)) return;
  try {
    sources.set(file, readFileSync(file, "utf8"));
  } catch {
    // Only an excerpt is lost: the location is still printed.
  }
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

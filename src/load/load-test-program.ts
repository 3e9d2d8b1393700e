/**
 * What `luma test FILE` runs: the file's `test` blocks, checked against the file's
 * declarations — and, for `NAME.test.luma`, those of `NAME.luma` beside it, so tests live
 * in their own file and still see the program they test. The sibling's top-level
 * statements and tests are not part of it (the sibling's tests run when it is named itself).
 *
 * `luma check NAME.test.luma` checks the same two-file program (so it accepts exactly what
 * `luma test` runs), keeping the test file's own top-level statements: they are never run,
 * but a check reports every error written in the file it was given. Each diagnostic's span
 * names the file it was found in, so one in the sibling is shown there.
 *
 * Either file may import others (docs/language/imports.md): each is linked on its own, and
 * a declaration both reach through imports (the same file, the same place) is kept once.
 *
 * Never cached: the cache key is one file's text, and a test program is two.
 */
import { existsSync } from "node:fs";
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { Decl, Program } from "../syntax/ast";
import { testedFileOf } from "../syntax/test-file-pair";
import { checkOrReject, parseLinked, readSource } from "./load-program";

export { testedFileOf };

export interface LoadedTestProgram {
  /** Declarations of both files, the test file's tests and replay (and its top-level statements when asked). */
  program: Program;
  /** `NAME.luma`, when the file is `NAME.test.luma` and it exists. */
  sibling?: string;
  diagnostics: Diagnostic[];
}

export async function loadTestProgram(
  file: string,
  sources: Map<string, string>,
  opts: { keepStatements?: boolean } = {},
): Promise<LoadedTestProgram> {
  const read = (f: string) => {
    const source = readSource(f);
    sources.set(f, source);
    return source;
  };
  const own = await parseLinked(file, read(file), sources);
  const tested = testedFileOf(file);
  const siblingFile = tested !== undefined && existsSync(tested) ? tested : undefined;
  const sibling = siblingFile !== undefined ? await parseLinked(siblingFile, read(siblingFile), sources) : undefined;
  const program: Program = { ...own, decls: joinDecls(sibling?.decls ?? [], own.decls), body: opts.keepStatements ? own.body : [] };
  const linked = [...(own.linked ?? []), ...(sibling?.linked ?? [])];
  if (linked.length > 0) program.linked = linked;
  const diagnostics = await checkOrReject(file, program);
  if (!program.linked) return { program, sibling: sibling && siblingFile, diagnostics };
  // Every file is checked whole; what runs is what the two files reach (check/imports/link-program.ts).
  const { reachedProgram } = await import("../check/imports/link-program");
  const reached = reachedProgram(program, siblingFile !== undefined ? [file, siblingFile] : [file]);
  return { program: reached, sibling: sibling && siblingFile, diagnostics };
}

/** The sibling's declarations, then the test file's, without a second copy of one both import. */
function joinDecls(first: readonly Decl[], second: readonly Decl[]): Decl[] {
  const at = (d: Decl) => `${d.span.file}\0${d.span.start}`;
  const seen = new Set(first.map(at));
  return [...first, ...second.filter((d) => !seen.has(at(d)))];
}

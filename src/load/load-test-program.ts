/**
 * What `luma test FILE` runs: the file's `test` blocks, checked against the file's
 * declarations — and, for `NAME.test.luma`, those of `NAME.luma` beside it, so tests live
 * in their own file and still see the program they test. The sibling's top-level
 * statements and tests are not part of it (the sibling's tests run when it is named itself).
 *
 * Never cached: the cache key is one file's text, and a test program is two.
 */
import { existsSync } from "node:fs";
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { Program } from "../syntax/ast";
import { checkOrReject, parseOrReject, readSource } from "./load-program";

export interface LoadedTestProgram {
  /** Declarations of both files, no top-level statements, the test file's tests and replay. */
  program: Program;
  /** `NAME.luma`, when the file is `NAME.test.luma` and it exists. */
  sibling?: string;
  diagnostics: Diagnostic[];
}

const TEST_SUFFIX = ".test.luma";

export async function loadTestProgram(file: string, sources: Map<string, string>): Promise<LoadedTestProgram> {
  const read = (f: string) => {
    const source = readSource(f);
    sources.set(f, source);
    return source;
  };
  const own = await parseOrReject(file, read(file));
  const siblingFile = file.endsWith(TEST_SUFFIX) ? file.slice(0, -TEST_SUFFIX.length) + ".luma" : undefined;
  const sibling = siblingFile !== undefined && existsSync(siblingFile) ? await parseOrReject(siblingFile, read(siblingFile)) : undefined;
  const program: Program = { ...own, decls: [...(sibling?.decls ?? []), ...own.decls], body: [] };
  const diagnostics = await checkOrReject(file, program);
  return { program, sibling: sibling && siblingFile, diagnostics };
}

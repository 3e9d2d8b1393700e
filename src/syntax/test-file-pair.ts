/**
 * The file layout of tests: `NAME.test.luma` holds tests of `NAME.luma`, and its tests see
 * that file's declarations. One rule, read by everything that must pair the two the same
 * way — `luma test` and `luma check` (src/load/load-test-program.ts) and the language
 * server (src/lsp/analyze-document.ts) — so an editor, a check and a test run never
 * disagree on which names a test file sees. Only names here: whether the sibling exists
 * (on disk, or open in an editor) is the caller's question.
 */

export const TEST_FILE_SUFFIX = ".test.luma";

/** `NAME.luma` for `NAME.test.luma`; undefined for any other file. */
export function testedFileOf(file: string): string | undefined {
  return file.endsWith(TEST_FILE_SUFFIX) ? file.slice(0, -TEST_FILE_SUFFIX.length) + ".luma" : undefined;
}

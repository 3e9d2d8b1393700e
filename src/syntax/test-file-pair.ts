/**
 * The file layout of tests: `NAME.test.luma` holds tests of `NAME.luma`, and its tests see
 * that file's declarations. One rule, read by everything that must pair the two the same
 * way — `luma test` and `luma check` (src/load/load-test-program.ts) and the language
 * server (src/lsp/analyze-document.ts) — so an editor, a check and a test run never
 * disagree on which names a test file sees. Only names here: whether the sibling exists
 * (on disk, or open in an editor) is the caller's question. Both work on a path or on a
 * `file:` URI alike (only the end of the name changes).
 */

export const TEST_FILE_SUFFIX = ".test.luma";

/** `NAME.luma` for `NAME.test.luma`; undefined for any other file. */
export function testedFileOf(file: string): string | undefined {
  return file.endsWith(TEST_FILE_SUFFIX) ? file.slice(0, -TEST_FILE_SUFFIX.length) + ".luma" : undefined;
}

/** `NAME.test.luma` for `NAME.luma` (whose tests see it); undefined for a test file or any other file. */
export function testFileOf(file: string): string | undefined {
  return file.endsWith(".luma") && !file.endsWith(TEST_FILE_SUFFIX) ? file.slice(0, -".luma".length) + TEST_FILE_SUFFIX : undefined;
}

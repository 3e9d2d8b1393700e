/**
 * Document formatting, switched off until `luma fmt` lands: the formatter (`formatSource`
 * in `src/format/`) is built on another branch. To wire it after merging, set
 * `formatDocument` to `(text) => formatSource(text)` (returning `undefined` when the text
 * does not parse) — the server then advertises `documentFormattingProvider` and answers
 * `textDocument/formatting` with one whole-document edit. Nothing else needs to change.
 */
export type DocumentFormatter = (text: string, file: string) => string | undefined;

export const formatDocument: DocumentFormatter | undefined = undefined;

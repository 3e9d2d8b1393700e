/**
 * Document formatting: `luma fmt`'s layout (`formatSource` in `src/format/`). The server
 * advertises `documentFormattingProvider` when this is set and answers
 * `textDocument/formatting` with one whole-document edit; a text that does not parse (or
 * that the formatter refuses, keeping its meaning-check) gets no edit.
 */
import { formatSource } from "../format/format-source";

export type DocumentFormatter = (text: string, file: string) => string | undefined;

export const formatDocument: DocumentFormatter | undefined = (text, file) => {
  const r = formatSource(text, file);
  return "text" in r ? r.text : undefined;
};

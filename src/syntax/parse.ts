/**
 * `parse(source, file)`: Luma source text → AST, or one syntax-error diagnostic.
 *
 * `grammar.ohm` is the normative definition of the syntax, and its Ohm path (`ohm-parse.ts`)
 * the normative parser. Ohm's matching is slow, though (5.7 s for a 1 MB program), so a
 * hand-written recursive-descent mirror of the grammar (`fast-parse/`) runs first: it
 * gives exactly the AST the Ohm path gives — same nodes, key order and spans — or declines.
 * It declines every input the grammar rejects, and everything the Ohm path would answer
 * with a diagnostic (nesting past the limit, a second `replay`…), so every error, with its
 * message, code, hints and position, still comes from the Ohm path — but one: a `{` in a
 * string that opens no interpolation, in a program it otherwise reads whole, is reported
 * by the fast parser itself, with the Ohm path's diagnostics (`FastStop.diagnostics`), as
 * Ohm spent hundreds of bytes per character matching a long string. The differential and
 * mutation tests (tests/syntax/fast-parser*.test.ts, error-paths-differential.test.ts)
 * hold the two to the same answer. A successful fast parse never loads ohm-js at all; where
 * it stops at an item it cannot read, the Ohm path starts matching near that item.
 *
 * A misspelt declaration keyword (`shema X {`) is found first, on the lexical scan's line
 * words, whichever parser then runs; the scan is skipped when no line has the shape of one.
 */
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { Program } from "./ast";
import { type FastStop, fastParse } from "./fast-parse/fast-program";
import { type LexicalScan, scanLexical } from "./lexical-scan";
import { mayHaveMisspeltKeyword, misspeltKeyword } from "./misspelt-keyword";

export interface ParseResult {
  /** Present when there were no errors. */
  program?: Program;
  diagnostics: Diagnostic[];
}

export interface ParseOptions {
  /** "ohm" skips the fast parser (tests that pin the Ohm path itself). */
  engine?: "ohm";
  /** The Ohm path's piece size (`ohm-parse.ts`); giving one implies the Ohm path. */
  chunkChars?: number;
}

export function parse(source: string, file: string, opts: ParseOptions = {}): ParseResult {
  let scan: LexicalScan | undefined;
  if (mayHaveMisspeltKeyword(source)) {
    scan = scanLexical(source, { lineWords: true });
    const misspelt = misspeltKeyword(source, file, scan.lineWords ?? []);
    if (misspelt) return { diagnostics: [misspelt] };
  }
  const stop: FastStop = {};
  if (opts.engine === undefined && opts.chunkChars === undefined) {
    const program = fastParse(source, file, undefined, stop);
    if (program) return { program, diagnostics: [] };
    if (stop.diagnostics) return { diagnostics: stop.diagnostics };
  }
  scan ??= scanLexical(source, { lineWords: true });
  // Loaded on first need: importing ohm-js costs start-up time a valid program never pays.
  const { ohmParse } = require("./ohm-parse") as typeof import("./ohm-parse");
  // With the scan, a string or comment left open ends what Ohm is given (see `ohm-parse.ts`):
  // the rest of the file is inside it, and matching it cost hundreds of bytes per byte.
  return ohmParse(source, file, scan.lineWords ?? [], opts.chunkChars, stop.itemStarts, scan);
}

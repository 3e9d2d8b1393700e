/**
 * Parsing for an editor: one typo must not hide the rest of the file. The real parser
 * (`src/syntax/parse.ts`) stops at the first syntax error, so recovery works around it
 * rather than re-implementing it: the top-level item (declaration or statement) holding
 * the error is blanked out — every character but line breaks becomes a space, so all
 * offsets stay those of the editor's text — and the file is parsed again. The items that
 * parse are then checked as usual, and every syntax error found on the way is reported.
 *
 * A top-level item starts on a line whose first character is not blank and not a closing
 * bracket (the layout every example and `luma fmt` use). An error found right at the
 * start of an item usually means the item before it was never closed, so that one is
 * blanked (and when the error stays put, the item itself). Work is capped: after MAX_RECOVERIES blanked items the rest is left unchecked.
 */
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { Program } from "../syntax/ast";
import { parse } from "../syntax/parse";

export const MAX_RECOVERIES = 20;

export interface RecoveredParse {
  /** The program of the items that parsed; absent only when recovery gave up. */
  program?: Program;
  /** Every syntax error found, in the order found. */
  syntaxErrors: Diagnostic[];
  /** The source ranges that were blanked, `[start, end)`. */
  blanked: [number, number][];
}

/** Offsets where top-level items start. */
function itemStarts(text: string): number[] {
  const starts: number[] = [];
  for (let at = 0; at < text.length; ) {
    const c = text[at];
    if (c !== " " && c !== "\t" && c !== "\r" && c !== "\n" && c !== "}" && c !== ")" && c !== "]") starts.push(at);
    const nl = text.indexOf("\n", at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return starts;
}

function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + text.slice(start, end).replace(/[^\r\n]/g, " ") + text.slice(end);
}

/** The item to blank for an error at `at`, given the item starts. */
function itemToBlank(text: string, starts: number[], at: number, ownItem: boolean): [number, number] {
  let k = -1;
  for (let i = 0; i < starts.length && starts[i] <= at; i++) k = i;
  const span = (i: number): [number, number] => [starts[i] ?? 0, starts[i + 1] ?? text.length];
  if (k === -1) return [0, starts[0] ?? text.length];
  const firstToken = text.slice(starts[k], at).trim() === "";
  return firstToken && k > 0 && !ownItem ? span(k - 1) : span(k);
}

export function recoveringParse(source: string, file: string): RecoveredParse {
  const syntaxErrors: Diagnostic[] = [];
  const blanked: [number, number][] = [];
  let text = source;
  let lastAt = -1;
  for (let attempt = 0; attempt <= MAX_RECOVERIES; attempt++) {
    const result = parse(text, file);
    if (result.program) return { program: result.program, syntaxErrors, blanked };
    const at = result.diagnostics[0]?.span?.start ?? 0;
    // The same error again (the item before was not the culprit) is reported once.
    if (at !== lastAt) syntaxErrors.push(...result.diagnostics);
    if (attempt === MAX_RECOVERIES) break;
    const starts = itemStarts(text);
    let [start, end] = itemToBlank(text, starts, at, at === lastAt);
    // Blanking what is already blank gains nothing: take the error's own item instead.
    if (text.slice(start, end).trim() === "") [start, end] = itemToBlank(text, starts, at, true);
    lastAt = at;
    if (text.slice(start, end).trim() === "") break;
    text = blank(text, start, end);
    blanked.push([start, end]);
  }
  return { syntaxErrors, blanked };
}

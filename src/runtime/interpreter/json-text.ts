/**
 * `json_parse`'s reading of JSON text: `JSON.parse` does the work, and when it refuses a
 * text this small scanner finds where — JavaScript engines word their errors differently
 * and not all give a position, while a user needs "line 3, column 14" to fix a file or see
 * what a service sent. Lines and columns count from 1; a column counts UTF-16 units, as
 * `len` does.
 */
import type { Value } from "./values";

export const MAX_JSON_DEPTH = 512;

export type JsonReading = { ok: true; value: Value } | { ok: false; line: number; column: number; problem: string };

export function readJson(text: string): JsonReading {
  try {
    return { ok: true, value: JSON.parse(text) as Value };
  } catch {
    // Only a refused text pays for the scan.
  }
  const error = firstError(text) ?? { at: 0, problem: "invalid JSON" };
  const before = text.slice(0, error.at);
  const line = before.split("\n").length;
  const column = error.at - (before.lastIndexOf("\n") + 1) + 1;
  return { ok: false, line, column, problem: error.problem };
}

interface ScanError {
  at: number;
  problem: string;
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** Where the text stops being JSON, or undefined when it is JSON. */
function firstError(text: string): ScanError | undefined {
  let i = 0;
  const fail = (problem: string): never => {
    throw { at: i, problem } satisfies ScanError;
  };
  const blank = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const found = () => (i < text.length ? `unexpected ${JSON.stringify(text[i])}` : "unexpected end of text");
  const word = (w: string) => {
    if (text.startsWith(w, i)) i += w.length;
    else fail(found());
  };
  const string = () => {
    i++;
    STRING_BODY.lastIndex = i;
    if (STRING_BODY.test(text)) return void (i = STRING_BODY.lastIndex);
    // Walk to the offending character for the position.
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail("a control character in a string");
      if (text[i] === "\\") {
        const esc = text[i + 1];
        if (esc === "u" ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !esc || !'"\\/bfnrt'.includes(esc)) {
          fail("an invalid escape in a string");
        }
        i += esc === "u" ? 6 : 2;
      } else i++;
    }
    fail("an unterminated string");
  };
  const value = (depth: number): void => {
    // Deeper than this is what made JSON.parse overflow (it accepts far more than anyone sends).
    if (depth > MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH}`);
    blank();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      blank();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === "{") {
          blank();
          if (text[i] !== '"') fail(`${found()}, expected a key in quotes`);
          string();
          blank();
          if (text[i] !== ":") fail(`${found()}, expected ':'`);
          i++;
        }
        value(depth + 1);
        blank();
        if (text[i] === ",") i++;
        else if (text[i] === close) return void i++;
        else fail(`${found()}, expected ',' or '${close}'`);
      }
    }
    if (c === '"') return string();
    if (c === "t") return word("true");
    if (c === "f") return word("false");
    if (c === "n") return word("null");
    NUMBER.lastIndex = i;
    if ((c === "-" || (c >= "0" && c <= "9")) && NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail(found());
  };
  try {
    value(0);
    blank();
    if (i < text.length) fail(`${found()} after the value`);
    return undefined;
  } catch (e) {
    return e as ScanError;
  }
}

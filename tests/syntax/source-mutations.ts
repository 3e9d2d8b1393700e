/**
 * Token-level mutations of Luma sources for the differential tests: 1–3 edits (a token
 * deleted, duplicated or swapped, or an insertion from INSERTS or BLANKS) drawn from a
 * deterministic generator, so the cases are the same every run.
 */

const TOKEN = /\s+|\/\/[^\n]*|"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?|->|==|!=|<=|>=|[^\sA-Za-z0-9_]/g;

const INSERTS = [
  ";", "\n", " ", "+", "-", "*", "/", "==", "<", "->", "(", ")", "[", "]", "{", "}", ",", ":", ".", "=", "?", "@",
  '"', "\\", "#", "//", "/*", "*/", "{x}", '"{"', "\\{", "\\n", '"a{"b"}c"', "{a: 1}", "[1, 2,]", "f(x)", ".b", "[0]",
  "- -", "not not", "if", "else", "for", "in", "return", "not", "and", "or", "ask", "tool", "fn", "schema", "agent",
  "model", "query", "test", "replay", "mock", "assert", "true", "null", "using", "tagged", "by", "needs", "try",
  "catch", "break", "enum", "int", "string[]", "x", "1", "-1", "1e5", "1.", "é", "😀", "\t", "\r\n", "\uFEFF", "\v",
  "\f", "\u00a0", "\u2028", "#!", "constructor", "__proto__", "toString", "shema X", "tol t", "agnet A", "qurey q",
];
/** Edits that usually keep a program valid: they move spans and test the newline rule. */
const BLANKS = [" ", "\n", "\t", "/* c */", "// c\n", ";", "\r\n", "  \n\n"];

/** A deterministic generator (a linear congruential one: the cases are the same every run). */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

export function mutate(source: string, rnd: () => number): string {
  const tokens = source.match(TOKEN) ?? [];
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  for (let edits = 1 + Math.floor(rnd() * 3); edits > 0; edits--) {
    const i = Math.floor(rnd() * tokens.length);
    const r = rnd();
    if (r < 0.25) tokens.splice(i, 1);
    else if (r < 0.4) tokens.splice(i, 0, tokens[i] ?? "");
    else if (r < 0.55) {
      const j = Math.floor(rnd() * tokens.length);
      [tokens[i], tokens[j]] = [tokens[j], tokens[i]];
    } else tokens.splice(i, 0, pick(r < 0.8 ? INSERTS : BLANKS));
  }
  return tokens.join("");
}

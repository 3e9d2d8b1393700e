/**
 * A module's text with its comments replaced by spaces (newlines kept), so every offset
 * still points at the same line:col. For the one lint rule whose word is everyday prose —
 * `Bun` as a bare value in an in-process ES module ("loaded by Bun itself" in a comment is
 * not an access). The other rules read comments on purpose (spec §10: "comments and strings
 * included").
 *
 * A small scanner, not a parser: it knows strings, template literals, regular expression
 * literals (by the token before the slash) and both comment forms. It only ever blanks what
 * it takes for a comment, and it is a lint's helper, not a barrier (docs/security.md).
 */

/** Tokens after which a `/` starts a regular expression rather than a division. */
const REGEX_BEFORE = /[(,=:[!&|?{};+\-*%<>~^]$|^$|(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/** The last text blanked and its result: the lint and the import-attribute scan read the same file. */
let last: { text: string; blanked: string } | undefined;

export function blankComments(text: string): string {
  if (last?.text === text) return last.blanked;
  const blanked = blank(text);
  last = { text, blanked };
  return blanked;
}

function blank(text: string): string {
  let out = "";
  let i = 0;
  let lastToken = "";
  const blank = (from: number, to: number) => {
    out += text.slice(from, to).replace(/[^\n]/g, " ");
  };
  while (i < text.length) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (ch === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (ch === '"' || ch === "'" || ch === "`" || (ch === "/" && REGEX_BEFORE.test(lastToken))) {
      const stop = literalEnd(text, i);
      out += text.slice(i, stop);
      lastToken = "x";
      i = stop;
    } else {
      out += ch;
      if (!/\s/.test(ch)) lastToken = /[\w$]/.test(ch) ? (/[\w$]$/.test(lastToken) ? lastToken + ch : ch) : ch;
      i++;
    }
  }
  return out;
}

/** Just past the string, template or regex literal opening at `start`. */
function literalEnd(text: string, start: number): number {
  const quote = text[start];
  let inClass = false;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (quote === "/" && ch === "[") inClass = true;
    else if (quote === "/" && ch === "]") inClass = false;
    else if (ch === quote && !inClass) return i + 1;
    else if (ch === "\n" && quote !== "`") return i;
  }
  return text.length;
}

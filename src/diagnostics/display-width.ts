/**
 * Terminal columns a text takes, so a caret lands under the character it points at when
 * the line before it holds CJK (two columns each), emoji (two) or combining marks and
 * joiners (none). An approximation of Unicode's East Asian Width and emoji presentation,
 * by code point ranges: exact enough for source lines, and no table to load at start-up.
 */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200B-\u200F\u2060\uFE00-\uFE0F\uFEFF]/u;
const EMOJI = /\p{Extended_Pictographic}/u;

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** The columns of one character (a code point). */
function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x300) return 1; // ASCII and Latin: the common case, no regex
  if (ZERO_WIDTH.test(ch)) return 0;
  return isWide(cp) || (cp >= 0x1f000 && EMOJI.test(ch)) ? 2 : 1;
}

/** The columns `text` takes on a terminal. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += charWidth(ch);
  return width;
}

/** Blanks that take the same columns as `text`, tabs kept (they expand the same way). */
export function blankLike(text: string): string {
  let out = "";
  for (const ch of text) out += ch === "\t" ? "\t" : " ".repeat(charWidth(ch));
  return out;
}

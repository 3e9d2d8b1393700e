/**
 * `\u0070rocess` is `process` to the JavaScript engine. The lint reads the text the engine
 * reads: unicode escapes (`\uXXXX`, `\u{X…}`) and hex escapes (`\xXX`) are decoded first,
 * and every decoded offset keeps the raw offset it came from, so a refusal still points at
 * the line:col the author wrote.
 */

export interface DecodedText {
  text: string;
  /** Raw offset of each decoded offset (one entry more than `text`, for end positions). */
  rawOffsets: number[];
}

const ESCAPE = /\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g;

export function decodeEscapes(raw: string): DecodedText {
  let text = "";
  const rawOffsets: number[] = [];
  let last = 0;
  const copy = (until: number) => {
    for (let i = last; i < until; i++) rawOffsets.push(i);
    text += raw.slice(last, until);
  };
  for (const match of raw.matchAll(ESCAPE)) {
    const at = match.index;
    const code = parseInt(match[1] ?? match[2] ?? match[3], 16);
    if (code > 0x10ffff) continue;
    copy(at);
    const char = String.fromCodePoint(code);
    for (let k = 0; k < char.length; k++) rawOffsets.push(at);
    text += char;
    last = at + match[0].length;
  }
  copy(raw.length);
  rawOffsets.push(raw.length);
  return { text, rawOffsets };
}

/**
 * Finds a string literal or block comment left open. Strings may span lines, so an
 * unclosed one swallows the rest of the file and Ohm reports its failure far away;
 * the syntax error points at the opening instead.
 */

/**
 * The first string literal or block comment that runs to the end of the input, if any.
 * Skips line comments, escapes and `{…}` segments (which may hold strings of their
 * own), as the grammar does.
 */
export function unterminatedAt(input: string): { kind: "string" | "comment"; start: number } | undefined {
  const n = input.length;
  // Scans a string whose opening quote is at `start`; returns the index after it, or -1.
  const scanString = (start: number): number => {
    let j = start + 1;
    while (j < n) {
      const c = input[j];
      if (c === '"') return j + 1;
      if (c === "\\") j += 2;
      else if (c === "{") j = scanSegment(j);
      else j++;
    }
    return -1;
  };
  // Scans a `{…}` segment; an unbalanced `{` is plain text, as in the grammar.
  const scanSegment = (start: number): number => {
    let j = start + 1;
    while (j < n) {
      const c = input[j];
      if (c === "}") return j + 1;
      if (c === '"') {
        const end = scanString(j);
        if (end < 0) return start + 1;
        j = end;
      } else if (c === "{") j = scanSegment(j);
      else j++;
    }
    return start + 1;
  };
  // A shebang line is not code.
  const firstLineEnd = input.indexOf("\n");
  let i = !input.startsWith("#!") ? 0 : firstLineEnd < 0 ? n : firstLineEnd;
  while (i < n) {
    if (input.startsWith("//", i)) {
      const eol = input.indexOf("\n", i);
      i = eol < 0 ? n : eol + 1;
    } else if (input.startsWith("/*", i)) {
      const close = input.indexOf("*/", i + 2);
      if (close < 0) return { kind: "comment", start: i };
      i = close + 2;
    } else if (input[i] === '"') {
      const end = scanString(i);
      if (end < 0) return { kind: "string", start: i };
      i = end;
    } else i++;
  }
  return undefined;
}

/**
 * A linear pre-scan of the lexical structure, run when Ohm fails or overflows: it
 * finds a string literal or block comment left open (strings may span lines, so an
 * unclosed one swallows the rest of the file and Ohm reports its failure far away) — or
 * the `{` in it that was meant as a character, whose interpolation a block's `}` closed — and
 * the opener at which nesting first goes deeper than `MAX_NESTING`. It also lists the
 * comments, which the AST does not hold, for the formatter (`src/format/`).
 *
 * Strings follow the grammar exactly, backtracking included: a `{` in a string opens an
 * interpolation only when a balanced `}` closes it (nested strings allowed), otherwise it
 * is a plain character and the scan resumes right after it. Done naively that re-scans
 * the rest of the input once per failed `{` — exponential for `"{{{{…`. Here every
 * (string | interpolation, start) outcome is memoized, as Ohm's packrat parser does, and
 * the nesting lives on an explicit stack, so the scan is linear and recursion-free for
 * any input. `steps` counts the characters examined; the robustness tests pin it.
 *
 * With `lineWords`, it also lists the words that open a line outside every bracket,
 * string, comment and `ask`: where a top-level declaration may begin. The Ohm path cuts
 * large sources there, and `parse` spots misspelt declaration keywords (when some line
 * has their shape: a valid program parsed by the fast parser usually needs no scan).
 */

import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";

/** The deepest nesting a program may have: brackets, blocks, interpolations, `ask`, operator chains. */
export const MAX_NESTING = 100;

/** The syntax error for a literal left open, by its kind. */
export const UNTERMINATED_MESSAGE = { string: "Unterminated string", comment: "Unterminated block comment" } as const;
export const UNTERMINATED_CODE = { string: PARSE_CODES.unterminatedString, comment: PARSE_CODES.unterminatedComment } as const;

export interface LexicalScan {
  /**
   * The first string literal or block comment that runs to the end of the input. `brace`:
   * a `{` of that string meant as a character, whose interpolation swallowed the string's
   * end — `"{\"a\": 1}"` in a block, closed by the block's `}`: the place to report
   * (E0107, with the `\{` hint), not the string's start.
   */
  unterminated?: { kind: "string" | "comment"; start: number; brace?: number };
  /** The opener at which nesting first exceeds MAX_NESTING. */
  deepAt?: number;
  /** The innermost bracket still open at the end of the input (its offset). */
  unclosed?: number;
  /** Characters examined (linear in the input). */
  steps: number;
  /** Every comment in code (not inside strings), in source order: `luma fmt` keeps them. */
  comments: { start: number; end: number }[];
  /** With `lineWords`: offsets of the words first on their line at nesting depth 0. */
  lineWords?: number[];
}

const STRING = 0;
const INTERP = 1;
/** Outcomes of a string or interpolation scan; ≥ 0 is the index after its end. */
const FAILED = -1;
const RAN_TO_END = -2;

const QUOTE = 34; // "
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
/** Characters that may follow `\`: `" \ n t { }` (anything else fails the string, as in the grammar). */
const ESCAPES = new Set([34, 92, 110, 116, 123, 125]);
const OPENERS = new Set([40, 91, 123]); // ( [ {
const CLOSERS = new Set([41, 93, 125]); // ) ] }
/** Marks an `ask` on the opener stack: its prompt nests until the `->` that ends it. */
const ASK = -1;

interface Frame {
  kind: typeof STRING | typeof INTERP;
  start: number;
  pos: number;
  /** Unclosed `(` `[` inside an interpolation segment's code. */
  brackets: number;
}

const isWordChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** True when only blanks stand between the start of the line and `at`. */
function firstOnLine(input: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && (input.charCodeAt(k) === 32 || input.charCodeAt(k) === 9)) k--;
  return k < 0 || input.charCodeAt(k) === 10 || (k === 0 && input.charCodeAt(0) === 0xfeff);
}

export function scanLexical(input: string, opts: { lineWords?: boolean } = {}): LexicalScan {
  const n = input.length;
  const scan: LexicalScan = { steps: 0, comments: [] };
  const lineWords: number[] | undefined = opts.lineWords ? (scan.lineWords = []) : undefined;
  // outcome + 3 per start index, 0 while unknown; allocated with the first string, as code
  // without strings (a huge run of brackets) needs none: 8 bytes per character otherwise.
  let memo: Int32Array[] | undefined;
  let depth = 0;
  const deeper = (levels: number, at: number): void => {
    depth += levels;
    if (depth > MAX_NESTING && scan.deepAt === undefined) scan.deepAt = at;
  };

  /** The outcome of the string or interpolation that opens at `start`. */
  const scanLiteral = (kind: Frame["kind"], start: number): number => {
    memo ??= [new Int32Array(n + 1), new Int32Array(n + 1)];
    const known = memo[kind][start];
    if (known !== 0) return known - 3;
    const stack: Frame[] = [];
    const push = (k: Frame["kind"], at: number): void => {
      stack.push({ kind: k, start: at, pos: at + 1, brackets: 0 });
      if (k === INTERP) deeper(1, at);
    };
    push(kind, start);
    for (;;) {
      scan.steps++;
      const frame = stack[stack.length - 1];
      const outcome = step(frame);
      if (outcome === undefined) continue;
      if (outcome === "child") {
        const childKind = input.charCodeAt(frame.pos) === QUOTE ? STRING : INTERP;
        const childKnown = (memo as Int32Array[])[childKind][frame.pos];
        if (childKnown === 0) push(childKind, frame.pos);
        else resume(frame, childKnown - 3);
        continue;
      }
      stack.pop();
      (memo as Int32Array[])[frame.kind][frame.start] = outcome + 3;
      if (frame.kind === INTERP) depth -= 1 + frame.brackets;
      if (stack.length === 0) return outcome;
      resume(stack[stack.length - 1], outcome);
    }
  };

  /** Continues `parent` after the string or interpolation at its position ended with `outcome`. */
  const resume = (parent: Frame, outcome: number): void => {
    if (outcome >= 0) parent.pos = outcome;
    // A failed interpolation inside a string is a plain `{`; inside an interpolation, any
    // failed part fails the whole segment.
    else if (parent.kind === STRING) parent.pos++;
    else parent.pos = FAILED;
  };

  /** Advances a frame by one character: its outcome, "child" to open one, or undefined. */
  const step = (frame: Frame): number | "child" | undefined => {
    const { pos } = frame;
    if (pos === FAILED) return FAILED;
    if (pos >= n) return frame.kind === STRING ? RAN_TO_END : FAILED;
    const c = input.charCodeAt(pos);
    if (frame.kind === STRING) {
      if (c === QUOTE) return pos + 1;
      if (c === BACKSLASH) {
        if (!ESCAPES.has(input.charCodeAt(pos + 1))) return FAILED;
        frame.pos += 2;
        return undefined;
      }
      if (c === OPEN_BRACE) return "child";
      frame.pos++;
      return undefined;
    }
    if (c === CLOSE_BRACE) return pos + 1;
    if (c === QUOTE || c === OPEN_BRACE) return "child";
    // Code inside the segment: its brackets nest too.
    if (c === 40 || c === 91) {
      frame.brackets++;
      deeper(1, pos);
    } else if ((c === 41 || c === 93) && frame.brackets > 0) {
      frame.brackets--;
      depth--;
    }
    frame.pos++;
    return undefined;
  };

  // Code: comments, strings, brackets and `ask … ->`.
  const openers = new OpenerStack();
  // A byte order mark, then a shebang line, are not code.
  const bom = input.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstLineEnd = input.indexOf("\n");
  let i = !input.startsWith("#!", bom) ? bom : firstLineEnd < 0 ? n : firstLineEnd;
  while (i < n) {
    scan.steps++;
    const c = input.charCodeAt(i);
    if (c === 47 && input.charCodeAt(i + 1) === 47) {
      const eol = input.indexOf("\n", i);
      // The comment ends before its newline (and a `\r` of CRLF).
      const end = eol < 0 ? n : input.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
      scan.comments.push({ start: i, end });
      i = eol < 0 ? n : eol + 1;
    } else if (c === 47 && input.charCodeAt(i + 1) === 42) {
      const close = input.indexOf("*/", i + 2);
      if (close < 0) return { ...scan, unterminated: { kind: "comment", start: i } };
      scan.comments.push({ start: i, end: close + 2 });
      i = close + 2;
    } else if (c === QUOTE) {
      const end = scanLiteral(STRING, i);
      if (end === RAN_TO_END) {
        const brace = swallowingBrace(i);
        return { ...scan, unterminated: brace === undefined ? { kind: "string", start: i } : { kind: "string", start: i, brace } };
      }
      // A string the grammar rejects (a bad escape) is where Ohm fails: nothing after it matters.
      if (end === FAILED) return scan;
      i = end;
    } else if (OPENERS.has(c)) {
      openers.push(c, i);
      deeper(1, i);
      i++;
    } else if (CLOSERS.has(c)) {
      while (openers.length > 0 && openers.top() === ASK) closeOne();
      if (openers.length > 0) closeOne();
      i++;
    } else if (c === 45 && input.charCodeAt(i + 1) === 62) {
      if (openers.length > 0 && openers.top() === ASK) closeOne();
      i += 2;
    } else if (isWordChar(c)) {
      const start = i;
      while (i < n && isWordChar(input.charCodeAt(i))) i++;
      if (lineWords && openers.length === 0 && firstOnLine(input, start)) lineWords.push(start);
      if (i - start === 3 && input.startsWith("ask", start)) {
        openers.push(ASK, start);
        deeper(1, start);
      }
    } else i++;
  }
  const unclosed = openers.innermostBracket();
  if (unclosed !== undefined) scan.unclosed = unclosed;
  return scan;

  /**
   * In the string at `start` that runs to the end: its first `{` whose interpolation closes
   * on a later line while a `"` later on the `{`'s own line would have closed the string,
   * or whose code starts with a `\` (an escaped quote meant for the string).
   */
  function swallowingBrace(start: number): number | undefined {
    const interps = (memo as Int32Array[])[INTERP];
    let k = start + 1;
    while (k < n) {
      const c = input.charCodeAt(k);
      if (c === BACKSLASH) k += 2;
      else if (c !== OPEN_BRACE) k++;
      else {
        const end = interps[k] - 3;
        if (end < 0) {
          k++;
          continue;
        }
        const eol = input.indexOf("\n", k);
        if (eol >= 0 && eol < end && input.slice(k, eol).includes('"')) return k;
        // `{\"…`: no expression starts with `\`, the brace was meant as a character.
        if (/^\{[ \t]*\\/.test(input.slice(k, k + 80))) return k;
        k = end;
      }
    }
    return undefined;
  }

  function closeOne(): void {
    openers.pop();
    depth--;
  }
}

/**
 * The open brackets and `ask`s, innermost last, as runs: openers of one kind on adjacent
 * characters (`((((`) are one run of a start and a count. A file of a million `(` is one
 * run, and any other opener costs 9 bytes: two plain arrays of numbers took 16 bytes or
 * more per opener, the scan's largest cost on brackets nested far past the limit.
 */
class OpenerStack {
  private kinds = new Int8Array(64);
  private starts = new Int32Array(64);
  private counts = new Int32Array(64);
  private runs = 0;
  /** How many openers are open (the sum of the runs' counts). */
  length = 0;

  push(kind: number, at: number): void {
    const top = this.runs - 1;
    this.length++;
    if (top >= 0 && this.kinds[top] === KIND_CODE[kind] && this.starts[top] + this.counts[top] === at) {
      this.counts[top]++;
      return;
    }
    if (this.runs === this.starts.length) this.grow();
    this.kinds[this.runs] = KIND_CODE[kind];
    this.starts[this.runs] = at;
    this.counts[this.runs] = 1;
    this.runs++;
  }

  pop(): void {
    this.length--;
    if (--this.counts[this.runs - 1] === 0) this.runs--;
  }

  /** The innermost opener's character, or ASK (the stack must not be empty). */
  top(): number {
    return CODE_KIND[this.kinds[this.runs - 1]];
  }

  /** The offset of the innermost bracket still open (not an `ask`), if any. */
  innermostBracket(): number | undefined {
    for (let k = this.runs - 1; k >= 0; k--) {
      if (CODE_KIND[this.kinds[k]] !== ASK) return this.starts[k] + this.counts[k] - 1;
    }
    return undefined;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const kinds = new Int8Array(size);
    const starts = new Int32Array(size);
    const counts = new Int32Array(size);
    kinds.set(this.kinds);
    starts.set(this.starts);
    counts.set(this.counts);
    [this.kinds, this.starts, this.counts] = [kinds, starts, counts];
  }
}

/** Openers as small codes, and back: `(` `[` `{` and ASK. */
const CODE_KIND = [40, 91, 123, ASK];
const KIND_CODE: Record<number, number> = { 40: 0, 91: 1, 123: 2, [ASK]: 3 };

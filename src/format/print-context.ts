/**
 * What every part of the printer shares: the source text (leaf tokens — numbers, strings,
 * keys, annotation arguments — are copied from it byte for byte, so their escapes and
 * spelling never change), the comments the AST does not hold, and the lines written so far.
 *
 * Comments are placed by position, in one pass: the printer visits items (declarations,
 * statements, fields, entries, multi-line list items) in source order, and before each
 * item takes every comment that starts before it (its leading comments, one per line),
 * after it the comments on the rest of its line (trailing), and before a closing brace
 * the comments left in the block. A comment inside an expression printed on one line
 * trails that line. Nothing is dropped: `format-source.ts` verifies it.
 */
import type { Span } from "../syntax/ast";

export interface SourceComment {
  start: number;
  end: number;
}

const INDENT = "  ";

/** A line's text, or how to make it once the comments before it are written. */
export type Text = string | (() => string);
const textOf = (text: Text): string => (typeof text === "string" ? text : text());
const isBlank = (c: string) => c === " " || c === "\t" || c === "\r" || c === "\n";

/** A node the printer has no layout for: a new AST kind reached the formatter. */
export class UnprintableNode extends Error {
  constructor(readonly nodeKind: string, readonly span: Span | undefined) {
    super(`luma fmt has no layout for a '${nodeKind}' node`);
  }
}

export class PrintContext {
  private next = 0;
  readonly lines: string[] = [];
  private readonly commentEnds: Map<number, number>;
  /** True right after a line that opens a block: no blank line goes there. */
  private fresh = true;

  constructor(readonly source: string, private readonly comments: readonly SourceComment[]) {
    this.commentEnds = new Map(comments.map((c) => [c.start, c.end]));
  }

  text(span: { start: number; end: number }): string {
    return this.source.slice(span.start, span.end);
  }

  indent(depth: number): string {
    return INDENT.repeat(depth);
  }

  /** Whether the source has an empty line right before `pos`. */
  blankBefore(pos: number): boolean {
    let newlines = 0;
    for (let i = pos - 1; i >= 0 && isBlank(this.source[i]); i--) if (this.source[i] === "\n") newlines++;
    return newlines >= 2;
  }

  /** The index of the next `ch` at or after `from`, skipping comments (the gap holds no strings). */
  skipTo(from: number, ch: string): number {
    let i = from;
    while (i < this.source.length && this.source[i] !== ch) {
      i = this.commentEnds.get(i) ?? i + 1;
    }
    return i;
  }

  /**
   * The lines of the comments before `pos` (own lines at `depth`), each after an empty
   * line where the source had one, and whether the item at `pos` itself follows one.
   */
  leadingLines(pos: number, depth: number, fresh: boolean): { lines: string[]; blank: boolean } {
    const lines: string[] = [];
    let first = fresh;
    while (this.next < this.comments.length && this.comments[this.next].start < pos) {
      const comment = this.comments[this.next++];
      if (!first && this.blankBefore(comment.start)) lines.push("");
      let line = this.indent(depth) + this.text(comment);
      // Comments sharing a source line share the output line.
      while (this.next < this.comments.length && this.comments[this.next].start < pos && this.sameLine(comment.end, this.comments[this.next].start)) {
        line += " " + this.text(this.comments[this.next++]);
      }
      lines.push(line);
      first = false;
    }
    return { lines, blank: !first && this.blankBefore(pos) };
  }

  /**
   * The comments that trail an item ending at `end`: those left inside it and those after
   * it on its source line with no code between (` // why`, or "" when none).
   */
  trailing(end: number): string {
    let text = "";
    let at = end;
    while (this.next < this.comments.length) {
      const comment = this.comments[this.next];
      if (comment.start >= end && !this.onlySeparators(at, comment.start)) break;
      text += " " + this.text(comment);
      at = Math.max(at, comment.end);
      this.next++;
    }
    return text;
  }

  /** Whether `[from, to)` holds only blanks on one line and `;` `,` separators. */
  private onlySeparators(from: number, to: number): boolean {
    for (let i = from; i < to; i++) {
      const c = this.source[i];
      if (c === "\n" || !(c === " " || c === "\t" || c === ";" || c === ",")) return false;
    }
    return true;
  }

  private sameLine(from: number, to: number): boolean {
    return !this.source.slice(from, to).includes("\n");
  }

  /** Whether a comment starts inside `(from, to)`: an empty block holding one keeps its lines. */
  commentInside(from: number, to: number): boolean {
    return this.comments.some((c) => c.start > from && c.start < to);
  }

  // -------------------------------------------------------------- block-level output

  /** Writes an item's leading comments, then the item (which may span lines), then its trailing comments. */
  item(pos: number, end: number, depth: number, text: Text): void {
    const { lines, blank } = this.leadingLines(pos, depth, this.fresh);
    if (blank) lines.push("");
    // The text is made after the leading comments are taken: it may take later ones.
    this.lines.push(...lines, this.indent(depth) + textOf(text) + this.trailing(end));
    this.fresh = false;
  }

  /**
   * Writes an item that opens a block (`… {`) at `pos`: its leading comments, then the
   * header with the comments up to and on its brace's line.
   */
  open(pos: number, depth: number, text: Text, brace: number): void {
    this.item(pos, brace + 1, depth, text);
    this.fresh = true;
  }

  /**
   * Writes the comments left before the closing brace at `brace`, then `closing` (`}`),
   * or, with `reopens` (the brace of `} else {`, `} catch e {`), a line that opens the next block.
   */
  close(brace: number, depth: number, closing: Text, reopens?: number): void {
    const { lines } = this.leadingLines(brace, depth + 1, this.fresh);
    this.lines.push(...lines);
    this.lines.push(this.indent(depth) + textOf(closing) + this.trailing((reopens ?? brace) + 1));
    this.fresh = reopens !== undefined;
  }

  /** The comments left at the end of the file, then the text with one final newline. */
  finish(): string {
    const { lines } = this.leadingLines(Number.MAX_SAFE_INTEGER, 0, this.fresh);
    this.lines.push(...lines);
    return this.lines.join("\n").replace(/\n+$/, "") + "\n";
  }
}

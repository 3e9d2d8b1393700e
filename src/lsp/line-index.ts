/**
 * Offsets ↔ LSP positions for one document version. LSP counts lines from 0 and columns in
 * UTF-16 code units — exactly how JS strings index, so a column is an offset minus the
 * line's start. The line starts are found once per version; each lookup is a binary
 * search, so a hover or a diagnostic in a long file costs no scan of the file.
 */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export class LineIndex {
  private starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: at - this.starts[lo] };
  }

  /** A position past the end of its line (or of the file) clamps to that end, as LSP asks. */
  offset(p: Position): number {
    if (p.line < 0) return 0;
    if (p.line >= this.starts.length) return this.text.length;
    const lineStart = this.starts[p.line];
    const next = p.line + 1 < this.starts.length ? this.starts[p.line + 1] - 1 : this.text.length;
    return Math.min(lineStart + Math.max(0, p.character), next);
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }
}

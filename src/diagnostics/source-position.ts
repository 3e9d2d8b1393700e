/** Offset → 1-based line and column, computed only when a diagnostic is rendered. */
export interface LineCol {
  line: number;
  col: number;
  /** The full text of that line, without its newline. */
  lineText: string;
  lineStart: number;
}

export function lineColOf(source: string, offset: number): LineCol {
  const clamped = Math.max(0, Math.min(offset, source.length));
  // A byte order mark opening the file is not a column.
  const lineStart = source.lastIndexOf("\n", clamped - 1) + 1 || (source.charCodeAt(0) === 0xfeff && clamped > 0 ? 1 : 0);
  let line = 1;
  for (let i = source.indexOf("\n"); i !== -1 && i < lineStart; i = source.indexOf("\n", i + 1)) line++;
  let lineEnd = source.indexOf("\n", lineStart);
  if (lineEnd === -1) lineEnd = source.length;
  const lineText = source.slice(lineStart, lineEnd).replace(/\r$/, "");
  return { line, col: clamped - lineStart + 1, lineText, lineStart };
}

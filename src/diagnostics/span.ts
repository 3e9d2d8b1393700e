/**
 * Where in a source file something is: the span every AST node and every diagnostic carries.
 *
 * It lives here, below every stage, because a `Diagnostic` points at source text: the
 * syntax stage's AST re-uses this type (and re-exports it), so `diagnostics/` needs no
 * arrow up to `syntax/` to say where an error is.
 */

/** Byte offsets into the file's source text (UTF-16 code units, as JS strings index). */
export interface Span {
  file: string;
  start: number;
  end: number;
}

/**
 * The one place that turns diagnostics into text:
 *
 *   app.luma:3:14: error: Unknown schema 'Answr'.
 *     3 |   fn run() -> Answr {
 *       |               ^^^^^
 *
 * Colour is a parameter, decided by the CLI (TTY and NO_COLOR); the library never prints.
 */
import pc from "picocolors";
import type { Span } from "./span";
import type { Diagnostic } from "./diagnostic";
import { blankLike, displayWidth } from "./display-width";
import { lineColOf } from "./source-position";

export interface RenderOptions {
  color: boolean;
  /** Returns the source text of a file named in a span, if known. */
  sourceOf: (file: string) => string | undefined;
}

export function renderDiagnostic(d: Diagnostic, opts: RenderOptions): string {
  const c = pc.createColors(opts.color);
  // `error[E0301]`: the code sits in the label so the message stays as the spec words it.
  const word = d.code ? `${d.severity}[${d.code}]` : d.severity;
  const label = d.severity === "error" ? c.red(c.bold(word)) : c.yellow(c.bold(word));
  const hints = d.hints?.length ? "\n" + d.hints.map((h) => `  ${c.cyan("hint")}: ${h}`).join("\n") : "";
  if (!d.span) return `${label}: ${d.message}${hints}`;
  const excerpt = sourceExcerpt(d.span, opts);
  if (excerpt === undefined) return `${c.bold(d.span.file)}: ${label}: ${d.message}${hints}`;
  return `${c.bold(excerpt.location)}: ${label}: ${d.message}\n${excerpt.lines}${hints}`;
}

/**
 * A span as `file:line:col` and its source line with a caret under it, or undefined when the
 * file's source is not known. Check diagnostics and located runtime errors share it.
 */
export function sourceExcerpt(span: Span, opts: RenderOptions): { location: string; lines: string } | undefined {
  const source = opts.sourceOf(span.file);
  if (source === undefined) return undefined;
  const c = pc.createColors(opts.color);
  const at = lineColOf(source, span.start);
  const gutter = String(at.line);
  const pad = " ".repeat(gutter.length);
  // The caret covers the span on its first line (at least one column), both measured in
  // terminal columns: a CJK character or an emoji before it takes two.
  const lineEnd = at.lineStart + at.lineText.length;
  const spanText = at.lineText.slice(at.col - 1, Math.min(span.end, lineEnd) - at.lineStart);
  const width = Math.max(1, displayWidth(spanText));
  const lead = blankLike(at.lineText.slice(0, at.col - 1));
  const caret = c.red("^".repeat(width));
  return {
    location: `${span.file}:${at.line}:${at.col}`,
    lines: [`  ${c.dim(gutter + " |")} ${at.lineText}`, `  ${c.dim(pad + " |")} ${lead}${caret}`].join("\n"),
  };
}

export function renderDiagnostics(list: readonly Diagnostic[], opts: RenderOptions): string {
  return list.map((d) => renderDiagnostic(d, opts)).join("\n\n");
}

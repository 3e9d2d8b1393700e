/**
 * Doc comments (issue #27 §1): the `///` lines directly above a `fn` — a top-level function
 * or an agent's method — become its `FnDecl.doc`, their text (after `///` and one space)
 * joined by newlines. A blank line or any other line between ends the comment. Both parsers
 * (the fast one and the Ohm path, which read `///` as an ordinary comment) call this on the
 * program they built, so they stay one grammar and give the same AST; the doc travels on
 * the AST, cached with it.
 * Read by an agent tool's description (the model sees it), LSP hover, `luma mcp` and typegen.
 */
import type { FnDecl, Program } from "./ast";

/** Sets `doc` on every fn and agent method that has `///` lines directly above it. */
export function attachDocComments(program: Program, source: string): void {
  if (!source.includes("///")) return;
  for (const d of program.decls) {
    if (d.kind === "Fn") setDoc(d, source);
    else if (d.kind === "Agent") for (const m of d.methods) setDoc(m, source);
  }
}

function setDoc(fn: FnDecl, source: string): void {
  const doc = docAbove(source, fn.span.start);
  // Re-read on a re-used node (the LSP's cached pieces): a doc the source no longer has goes.
  if (doc !== undefined) fn.doc = doc;
  else delete fn.doc;
}

/** The `///` block ending on the line before the one `at` is on; undefined when there is none. */
export function docAbove(source: string, at: number): string | undefined {
  let lineStart = source.lastIndexOf("\n", at - 1) + 1;
  const lines: string[] = [];
  while (lineStart > 0) {
    const prevEnd = lineStart - 1;
    const prevStart = source.lastIndexOf("\n", prevEnd - 1) + 1;
    const line = source.slice(prevStart, prevEnd).replace(/\r$/, "").trim();
    if (!line.startsWith("///")) break;
    const text = line.slice(3);
    lines.unshift(text.startsWith(" ") ? text.slice(1) : text);
    lineStart = prevStart;
  }
  return lines.length > 0 ? lines.join("\n").trimEnd() : undefined;
}

/**
 * A whole program: a byte order mark and `#!` line as written, then every declaration
 * and top-level statement in source order (the AST keeps them in two lists), with at
 * most one empty line between items where the source had any, and one final newline.
 */
import type { Decl, EvalDecl, ImportDecl, Program, ReplaySetup, Stmt, TestDecl } from "../syntax/ast";
import { DECL_KINDS } from "../syntax/to-ast-declarations";
import { PrintContext, type SourceComment } from "./print-context";
import { printDecl, printEval, printTest, replayItem } from "./print-declarations";
import { printStmt } from "./print-statements";

/** The program in the canonical layout. Throws UnprintableNode on a node kind it has no layout for. */
export function printProgram(program: Program, source: string, comments: readonly SourceComment[]): string {
  const p = new PrintContext(source, comments);
  const bom = source.startsWith("\uFEFF") ? "\uFEFF" : "";
  const shebang = source.startsWith("#!", bom.length) ? source.slice(0, source.indexOf("\n") + 1 || source.length).trimEnd() : "";
  const tests: (TestDecl | EvalDecl | ReplaySetup)[] = [...(program.tests ?? []), ...(program.evals ?? []), ...(program.replay ? [program.replay] : [])];
  const items: (Decl | Stmt | TestDecl | EvalDecl | ReplaySetup | ImportDecl)[] = [...(program.imports ?? []), ...program.decls, ...program.body, ...tests].sort(
    (a, b) => a.span.start - b.span.start,
  );
  for (const item of items) {
    if (item.kind === "Import") p.item(item.span.start, item.span.end, 0, () => importLine(item, p));
    else if (item.kind === "Test") printTest(item, p, 0);
    else if (item.kind === "Eval") printEval(item, p, 0);
    else if (item.kind === "Replay") replayItem(item, p).write(0);
    else if (DECL_KINDS.has(item.kind)) printDecl(item as Decl, p, 0);
    else printStmt(item as Stmt, p, 0);
  }
  const text = p.finish();
  const head = shebang ? `${shebang}\n` : bom;
  return text === "\n" ? head || "" : head + text;
}

/** Widest import line kept on one line; a longer list is printed one name a line. */
const IMPORT_LINE_WIDTH = 100;

/**
 * `import { A, B as C } from "./x.luma"`: one line when it fits, else one name a line with a
 * trailing comma. A comment inside the braces trails the line, as inside any other item.
 */
function importLine(line: ImportDecl, p: PrintContext): string {
  const names = line.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name));
  const from = `from ${p.text(line.pathSpan)}`;
  const flat = `import { ${names.join(", ")} } ${from}`;
  if (names.length === 0) return `import {} ${from}`;
  if (flat.length <= IMPORT_LINE_WIDTH) return flat;
  return `import {\n${names.map((n) => `  ${n},\n`).join("")}} ${from}`;
}

/**
 * Declarations: one field, entry, `needs` or method a line in their blocks, in source
 * order (the AST splits a tool's options from its `needs` and an agent's keys from its
 * methods; they are merged back by position). Parameters stay on one line when the
 * source had them so, else one a line with trailing commas.
 */
import type { Decl, Entry, EvalDecl, Field, FnDecl, NeedsEntry, ReplaySetup, Span, TestDecl } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";
import type { PrintContext } from "./print-context";
import { type ListItem, printEntry, printExpr, printField, printList, printType, unprintable } from "./print-expressions";
import { printBlock, printStmt } from "./print-statements";

type BlockItem = { span: Span; write(depth: number): void };

const bySource = (a: BlockItem, b: BlockItem) => a.span.start - b.span.start;

/** A line of a declaration block: a field, an entry or a `needs`. */
const lineItem = (p: PrintContext, span: Span, text: (depth: number) => string): BlockItem => ({
  span,
  write: (depth) => p.item(span.start, span.end, depth, () => text(depth)),
});

const entryItems = (p: PrintContext, entries: Entry[]) =>
  entries.map((e) => lineItem(p, e.span, (depth) => printEntry(e, p, depth)));
const fieldItems = (p: PrintContext, fields: Field[]) => fields.map((f) => lineItem(p, f.span, () => printField(f, p)));
const needsItems = (p: PrintContext, needs: NeedsEntry[]) =>
  needs.map((n) => lineItem(p, n.span, () => `needs ${n.name}: ${printType(n.type)}`));

/** `(a: int, b: string)`, or one parameter a line when the source spread them over lines. */
function printParams(p: PrintContext, params: Field[], after: number, depth: number): string {
  const open = p.skipTo(after, "(");
  const close = p.skipTo(params.length > 0 ? params[params.length - 1].span.end : open + 1, ")");
  const items: ListItem[] = params.map((f) => ({ start: f.span.start, end: f.span.end, print: () => printField(f, p) }));
  return printList(p, { file: "", start: open, end: close + 1 }, depth, ["(", ")"], items, ",");
}

/** Writes `header {` with the items of its block, which the declaration at `span` closes. */
function declBlock(p: PrintContext, span: Span, depth: number, header: () => string, after: number, items: BlockItem[]): void {
  const braces: [number, number] = [p.skipTo(after, "{"), span.end - 1];
  items.sort(bySource);
  printBlock(p, span.start, depth, header, braces, items.length, () => items.forEach((item) => item.write(depth + 1)));
}

function printFn(fn: FnDecl, p: PrintContext, depth: number): void {
  const after = fn.returns?.span.end ?? (fn.params.length > 0 ? fn.params[fn.params.length - 1].span.end : fn.nameSpan.end);
  const header = () => {
    const params = printParams(p, fn.params, fn.nameSpan.end, depth);
    return `fn ${fn.name}${params}${fn.returns ? ` -> ${printType(fn.returns)}` : ""}`;
  };
  const body = fn.body.map((stmt): BlockItem => ({ span: stmt.span, write: (d) => printStmt(stmt, p, d) }));
  declBlock(p, fn.span, depth, header, after, body);
}

/**
 * `test "name" { … }` (luma test): its `replay` and `mock` setups and its statements, in
 * source order. The name and the cassette path are copied as written (escapes included).
 */
export function printTest(t: TestDecl, p: PrintContext, depth: number): void {
  const items: BlockItem[] = t.body.map((stmt): BlockItem => ({ span: stmt.span, write: (d) => printStmt(stmt, p, d) }));
  if (t.replay) items.push(replayItem(t.replay, p));
  for (const m of t.mocks) {
    items.push({ span: m.span, write: (d) => p.item(m.span.start, m.span.end, d, () => `mock ${m.model} ${printExpr(m.turns, p, d)}`) });
  }
  for (const m of t.stubs ?? []) {
    items.push({ span: m.span, write: (d) => p.item(m.span.start, m.span.end, d, () => `mock tool ${m.tool} ${printExpr(m.answers, p, d)}`) });
  }
  declBlock(p, t.span, depth, () => `test ${p.text(t.nameSpan)}`, t.nameSpan.end, items);
}

/** `eval "name" over "data.jsonl" { … }` (luma eval): the name and the path copied as written. */
export function printEval(e: EvalDecl, p: PrintContext, depth: number): void {
  const items: BlockItem[] = e.body.map((stmt): BlockItem => ({ span: stmt.span, write: (d) => printStmt(stmt, p, d) }));
  declBlock(p, e.span, depth, () => `eval ${p.text(e.nameSpan)} over ${p.text(e.datasetSpan)}`, e.datasetSpan.end, items);
}

/** `replay "cassettes/x.jsonl"`, in a test or at the top of a test file. */
export function replayItem(r: ReplaySetup, p: PrintContext): BlockItem {
  return { span: r.span, write: (d) => p.item(r.span.start, r.span.end, d, () => p.text(r.span).replace(/^replay\s+/, "replay ")) };
}

export function printDecl(d: Decl, p: PrintContext, depth: number): void {
  switch (d.kind) {
    case "Schema":
      declBlock(p, d.span, depth, () => `schema ${d.name}`, d.nameSpan.end, fieldItems(p, d.fields));
      return;
    case "Union": {
      const members = d.members.map((m) => m.name).join(" | ");
      p.item(d.span.start, d.span.end, depth, `schema ${d.name} = ${members} tagged by ${d.tag}`);
      return;
    }
    case "Tool": {
      const header = () => `tool ${d.name}${printParams(p, d.params, d.nameSpan.end, depth)} -> ${printType(d.returns)}`;
      declBlock(p, d.span, depth, header, d.returns.span.end, [...entryItems(p, d.options), ...needsItems(p, d.needs)]);
      return;
    }
    case "Model":
    case "Datasource":
      declBlock(p, d.span, depth, () => `${d.kind.toLowerCase()} ${d.name}`, d.nameSpan.end, entryItems(p, d.entries));
      return;
    case "Agent": {
      const methods = d.methods.map((fn): BlockItem => ({ span: fn.span, write: (depth) => printFn(fn, p, depth) }));
      // `agent Support(user: User)`: the parameters as a fn's (issue #25).
      const params = d.params;
      const header = () => `agent ${d.name}${params ? printParams(p, params, d.nameSpan.end, depth) : ""}`;
      const after = params && params.length > 0 ? params[params.length - 1].span.end : d.nameSpan.end;
      declBlock(p, d.span, depth, header, after, [...entryItems(p, d.entries), ...methods]);
      return;
    }
    case "Fn":
      printFn(d, p, depth);
      return;
    case "Query":
    case "Command": {
      const header = () => `${d.kind.toLowerCase()} ${d.name}${printParams(p, d.params, d.nameSpan.end, depth)} -> ${printType(d.returns)}`;
      declBlock(p, d.span, depth, header, d.returns.span.end, entryItems(p, d.entries));
      return;
    }
    default:
      assertNever(d, unprintable);
  }
}

/**
 * The state of the parse in progress, read by the CST → AST actions.
 *
 * Ohm actions take no extra arguments, so the file name, the offset of the text being
 * converted (non-zero inside a string interpolation segment, which is matched on its
 * own), the diagnostics found during conversion and the nesting depth reached live here
 * for the duration of one synchronous `parse()` call.
 */
import type * as ohm from "ohm-js";
import type { Diagnostic } from "../diagnostics/diagnostic";
import type { Expr, Span } from "./ast";

export interface ParseContext {
  file: string;
  /** Offset of the matched text inside the file's source. */
  base: number;
  diagnostics: Diagnostic[];
  /** Shared with the contexts of interpolation segments: nesting goes on inside them. */
  nesting: { depth: number; reported: boolean };
  /** Parses one `{…}` interpolation segment that starts at `offset` in the file. */
  parseSegment(text: string, offset: number): Expr | undefined;
}

let current: ParseContext | undefined;

export function parseContext(): ParseContext {
  if (!current) throw new Error("Luma AST actions ran outside parse()");
  return current;
}

/** Runs `fn` with `ctx` as the current context, restoring the previous one after. */
export function withParseContext<T>(ctx: ParseContext, fn: () => T): T {
  const previous = current;
  current = ctx;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** The span of a CST node, in file offsets. */
export function spanOf(node: ohm.Node): Span {
  const { file, base } = parseContext();
  const { startIdx, endIdx } = node.source;
  return { file, start: base + startIdx, end: base + endIdx };
}

/** A span from the start of `from` to the end of `to`. */
export function spanBetween(from: ohm.Node, to: ohm.Node): Span {
  const { file, base } = parseContext();
  return { file, start: base + from.source.startIdx, end: base + to.source.endIdx };
}

/**
 * Converts a CST node with the `ast` operation (every action module uses this one
 * name). Typed `any` because the result's type depends on the rule; each action
 * states what it returns.
 */
export const toAst = (node: ohm.Node): any => node["ast"]();

/** The action of every `Xs = X ("," X)*` list rule: the converted items. */
export function commaList(this: ohm.Node, first: ohm.Node, _commas: ohm.Node, rest: ohm.Node): unknown[] {
  return [toAst(first), ...rest.children.map(toAst)];
}

/** The items of an optional list `(Xs ","?)?`: its converted items, or none. */
export const optionalList = <T>(optNode: ohm.Node): T[] => (optNode.numChildren > 0 ? toAst(optNode.child(0)) : []);

/** The converted items of an `(Item | sep)*` or `(Stmt | stmtSep)*` iteration, separators dropped. */
export const itemsWithoutSeps = <T>(iterNode: ohm.Node): T[] =>
  iterNode.children.filter((c) => c.ctorName !== "sep" && c.ctorName !== "stmtSep").map(toAst);

/**
 * The fast parser's keyword expressions (grammar.ohm § expressions): `tool name(arg)`,
 * `query`/`command` calls, `parallel for … { }`, and `[stream] ask … -> T [using tool t]
 * [in t]` — each starting at its keyword, called from `parsePrimary` (fast-expressions.ts),
 * building the nodes `to-ast-expressions.ts` builds, key order included.
 */
import type { Expr, Stmt } from "../ast";
import { parseExpr, parsePostfix } from "./fast-expressions";
import { parseBlock } from "./fast-statements";
import { type FastState, char, ident, isIdentPart, keyword, lit, sameLine, span } from "./fast-scanner";
import { parseType } from "./fast-types";

export function toolCall(s: FastState, start: number): Expr | undefined {
  s.pos += 4;
  const name = ident(s);
  if (name < 0) return undefined;
  const toolSpan = span(s, name, s.pos);
  const arg = char(s, 40) ? parseExpr(s) : undefined;
  if (!arg || !char(s, 41)) return undefined;
  return { kind: "ToolCall", tool: s.src.slice(name, toolSpan.end - s.base), toolSpan, arg, span: span(s, start, s.pos) };
}

/** `ParallelFor = kwParallel #sameLine ParallelLoop` (pos at `parallel`). */
export function parallelFor(s: FastState, start: number): Expr | undefined {
  s.pos = start + 8;
  if (!sameLine(s)) return undefined;
  const forAt = keyword(s, "for");
  if (forAt < 0) return undefined;
  const name = ident(s);
  if (name < 0) return undefined;
  const nameSpan = span(s, name, s.pos);
  const nameText = s.src.slice(name, s.pos);
  const iterable = keyword(s, "in") >= 0 ? parseExpr(s) : undefined;
  if (!iterable) return undefined;
  const limit = keyword(s, "limit") >= 0 ? parseExpr(s) : undefined;
  const body = parseBlock(s);
  if (!body) return undefined;
  const loop: Extract<Stmt, { kind: "For" }> = { kind: "For", name: nameText, nameSpan, iterable, body, span: span(s, forAt, s.pos) };
  const expr: Extract<Expr, { kind: "ParallelFor" }> = { kind: "ParallelFor", loop, span: span(s, start, s.pos) };
  if (limit) expr.limit = limit;
  return expr;
}

export function dbCall(s: FastState, start: number): Expr | undefined {
  const op = s.src.startsWith("query", start) ? "query" : "command";
  s.pos += op.length;
  const name = ident(s);
  if (name < 0) return undefined;
  const nameSpan = span(s, name, s.pos);
  const nameText = s.src.slice(name, s.pos);
  const arg = char(s, 40) ? parseExpr(s) : undefined;
  if (!arg || !char(s, 41)) return undefined;
  return { kind: "DbCall", op, name: nameText, nameSpan, arg, span: span(s, start, s.pos) };
}

/** Where `ask` starts after `stream` ending at `end`: spaces or tabs, then the keyword; -1 if not so. */
export function streamedAskAt(src: string, end: number): number {
  let i = end;
  while (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9) i++;
  return i > end && src.startsWith("ask", i) && !isIdentPart(src.charCodeAt(i + 3)) ? i : -1;
}

/** `Ask = kwStream? kwAsk Expr "->" Type UsingTool?` (its level covers the prompt, not `using`). */
export function ask(s: FastState, start: number): Expr | undefined {
  s.pos += 3;
  const prompt = parseExpr(s);
  const target = prompt && lit(s, "->") ? parseType(s) : undefined;
  if (!prompt || !target) return undefined;
  const expr: Expr = { kind: "Ask", prompt, target, span: span(s, start, s.pos) };
  let save = s.pos;
  if (keyword(s, "using") >= 0 && keyword(s, "tool") >= 0) {
    const name = ident(s);
    if (name >= 0) {
      expr.span = span(s, start, s.pos);
      expr.usingTool = { name: s.src.slice(name, s.pos), span: span(s, name, s.pos) };
      save = s.pos;
    }
  }
  s.pos = save;
  // `AskIn = kwIn Postfix`: the thread the ask continues (issue #26 §1).
  if (keyword(s, "in") >= 0) {
    const thread = parsePostfix(s);
    if (!thread) return undefined;
    expr.thread = thread;
    expr.span = span(s, start, s.pos);
    return expr;
  }
  s.pos = save;
  return expr;
}

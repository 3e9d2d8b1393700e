/**
 * Statements for the fast parser (grammar.ohm § statements): `Block` and `Stmt`, whose
 * alternatives are tried in the grammar's order — the word a statement opens with only
 * skips the ones that cannot match — building the nodes of `to-ast-statements.ts`.
 *
 * An `else if` chain is read in a loop, not by recursion. The Ohm path recurses once per
 * link and runs out of stack somewhere past a thousand links (then reports the nesting
 * error); the fast parser declines chains longer than MAX_ELSE_IFS so it never accepts one
 * the Ohm path rejects.
 */
import type { AssignTarget, Expr, Stmt } from "../ast";
import { parseExpr, postfixStep } from "./fast-expressions";
import { parseType } from "./fast-types";
import {
  type FastState, char, decline, deferBegin, deferEnd, enter, ident, keyword, leave, recurse, sameLine, skip, span,
  unrecurse, work,  leadingWord,
} from "./fast-scanner";
import { KEYWORDS } from "../keywords";
import { scoreStmt } from "./fast-evals";

const MAX_ELSE_IFS = 200;

/** `Block = "{" (Stmt | stmtSep)* "}"`: one nesting level for its statements. */
export function parseBlock(s: FastState): Stmt[] | undefined {
  const save = s.pos;
  if (!char(s, 123)) return undefined;
  recurse(s);
  enter(s);
  const body: Stmt[] = [];
  for (;;) {
    const stmt = parseStmt(s);
    if (stmt) body.push(stmt);
    else if (!char(s, 59)) break;
  }
  leave(s);
  unrecurse(s);
  if (char(s, 125)) return body;
  s.pos = save;
  return undefined;
}

/** `Stmt`, its alternatives in the grammar's order. */
export function parseStmt(s: FastState): Stmt | undefined {
  work(s);
  const save = s.pos;
  const first = leadingWord(s);
  const start = s.pos;
  const end = start + first.length;
  let stmt: Stmt | undefined;
  if (first !== "" && !KEYWORDS.has(first)) {
    // Assign needs `=` after the name, TypedAssign `:`, IntoAssign `.` or (on the line) `[`:
    // the character there rules out the rest without trying them.
    s.pos = end;
    const blanksEnd = afterBlanks(s.src, end);
    skip(s);
    const next = s.src.charCodeAt(s.pos);
    if (next === 61) stmt = assign(s, start);
    else if (next === 58) stmt = typedAssign(s, start);
    else if (next === 46 || s.src.charCodeAt(blanksEnd) === 91) stmt = intoAssign(s, start);
    if (!stmt && first === "assert") stmt = assertStmt(s, start);
    if (!stmt && first === "score") stmt = scoreStmt(s, start);
    if (!stmt && first === "parallel") stmt = parallelStmt(s, start);
  } else if (Object.hasOwn(KEYWORD_STATEMENTS, first)) stmt = KEYWORD_STATEMENTS[first](s, start);
  if (!stmt) {
    s.pos = start;
    const expr = parseExpr(s);
    if (expr) stmt = { kind: "ExprStmt", expr, span: span(s, start, s.pos) };
  }
  if (!stmt) s.pos = save;
  return stmt;
}

type StmtRule = (s: FastState, start: number) => Stmt | undefined;

/** The statements that open with a keyword (pos at the keyword, after the skip). */
const KEYWORD_STATEMENTS: Record<string, StmtRule> = {
  if: ifStmt,
  for(s, start) {
    s.pos = start + 3;
    const name = ident(s);
    if (name < 0) return undefined;
    const nameSpan = span(s, name, s.pos);
    const nameText = s.src.slice(name, s.pos);
    const iterable = keyword(s, "in") >= 0 ? parseExpr(s) : undefined;
    const body = iterable && parseBlock(s);
    if (!iterable || !body) return undefined;
    return { kind: "For", name: nameText, nameSpan, iterable, body, span: span(s, start, s.pos) };
  },
  while(s, start) {
    s.pos = start + 5;
    const cond = parseExpr(s);
    const body = cond && parseBlock(s);
    return cond && body ? { kind: "While", cond, body, span: span(s, start, s.pos) } : undefined;
  },
  return(s, start) {
    s.pos = start + 6;
    if (sameLine(s)) {
      const value = parseExpr(s);
      if (value) return { kind: "Return", value, span: span(s, start, s.pos) };
    }
    s.pos = start + 6;
    return { kind: "Return", span: span(s, start, s.pos) };
  },
  try(s, start) {
    s.pos = start + 3;
    const body = parseBlock(s);
    const err = body && keyword(s, "catch") >= 0 ? ident(s) : -1;
    if (!body || err < 0) return undefined;
    const errSpan = span(s, err, s.pos);
    const errName = s.src.slice(err, s.pos);
    const handler = parseBlock(s);
    if (!handler) return undefined;
    return { kind: "Try", body, errName, errSpan, handler, span: span(s, start, s.pos) };
  },
  break(s, start) {
    s.pos = start + 5;
    return { kind: "Break", span: span(s, start, s.pos) };
  },
  continue(s, start) {
    s.pos = start + 8;
    return { kind: "Continue", span: span(s, start, s.pos) };
  },
};

const afterBlanks = (src: string, at: number): number => {
  let i = at;
  while (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9) i++;
  return i;
};

/** `ParallelStmt = kwParallel #sameLine Block` (else `parallel` is a name: ExprStmt follows). */
function parallelStmt(s: FastState, start: number): Stmt | undefined {
  s.pos = start + 8;
  if (!sameLine(s)) return undefined;
  const body = parseBlock(s);
  return body ? { kind: "Parallel", body, span: span(s, start, s.pos) } : undefined;
}

/** `Assign = ident assignOp Expr`. */
function assign(s: FastState, start: number): Stmt | undefined {
  s.pos = start;
  if (ident(s) < 0) return undefined;
  const nameEnd = s.pos;
  const value = assignOp(s) ? parseExpr(s) : undefined;
  if (!value) return undefined;
  return { kind: "Assign", name: s.src.slice(start, nameEnd), nameSpan: span(s, start, nameEnd), value, span: span(s, start, s.pos) };
}

/** `TypedAssign = ident ":" Type assignOp Expr`. */
function typedAssign(s: FastState, start: number): Stmt | undefined {
  s.pos = start;
  if (ident(s) < 0) return undefined;
  const nameEnd = s.pos;
  const type = char(s, 58) ? parseType(s) : undefined;
  const value = type && assignOp(s) ? parseExpr(s) : undefined;
  if (!type || !value) return undefined;
  return {
    kind: "Assign",
    name: s.src.slice(start, nameEnd),
    nameSpan: span(s, start, nameEnd),
    type,
    value,
    span: span(s, start, s.pos),
  };
}

/** `IntoAssign = ident (#indexOpen IndexArg | "." identName)+ assignOp Expr`. */
function intoAssign(s: FastState, start: number): Stmt | undefined {
  s.pos = start;
  if (ident(s) < 0) return undefined;
  let target: Expr = { kind: "Name", name: s.src.slice(start, s.pos), span: span(s, start, s.pos) };
  let steps = 0;
  const outerPeak = deferBegin(s);
  for (let next = postfixStep(s, target, start, false); next; next = postfixStep(s, target, start, false)) {
    target = next;
    steps++;
  }
  // The target's steps are its nesting levels; the value is converted outside them.
  deferEnd(s, outerPeak, steps);
  if (steps === 0) return undefined;
  const value = assignOp(s) ? parseExpr(s) : undefined;
  if (!value) return undefined;
  return { kind: "AssignInto", target: target as AssignTarget, value, span: span(s, start, s.pos) };
}

/** `assignOp = "=" ~"="`, after a skip. */
function assignOp(s: FastState): boolean {
  const save = s.pos;
  if (char(s, 61) && s.src.charCodeAt(s.pos) !== 61) return true;
  s.pos = save;
  return false;
}

/** `AssertStmt = kwAssert #sameLine Expr ("," Expr)?`. */
export function assertStmt(s: FastState, start: number): Stmt | undefined {
  s.pos = start;
  if (keyword(s, "assert") < 0 || !sameLine(s)) return undefined;
  const cond = parseExpr(s);
  if (!cond) return undefined;
  const stmt: Stmt = { kind: "Assert", cond, span: span(s, start, s.pos) };
  const save = s.pos;
  const message = char(s, 44) ? parseExpr(s) : undefined;
  if (message) {
    stmt.span = span(s, start, s.pos);
    stmt.message = message;
  } else s.pos = save;
  return stmt;
}

/**
 * `IfStmt = kwIf Expr Block (kwElse ElseBranch)?`, `ElseBranch = IfStmt | Block`: the chain
 * of `else if` links is read in a loop, each link's span running to the end of the chain.
 */
function ifStmt(s: FastState, start: number): Stmt | undefined {
  const links: { stmt: Extract<Stmt, { kind: "If" }>; start: number }[] = [];
  let linkStart = start;
  let beforeElse = -1;
  for (;;) {
    s.pos = linkStart + 2;
    const cond = parseExpr(s);
    const then = cond && parseBlock(s);
    if (!cond || !then) {
      if (links.length === 0) return undefined;
      // This `if` is not an ElseBranch, and a Block does not start with `if`: no `else`.
      s.pos = beforeElse;
      break;
    }
    if (links.length >= MAX_ELSE_IFS) decline();
    links.push({ stmt: { kind: "If", cond, then, span: span(s, linkStart, linkStart) }, start: linkStart });
    beforeElse = s.pos;
    if (keyword(s, "else") < 0) break;
    const afterElse = s.pos;
    const nextIf = keyword(s, "if");
    if (nextIf >= 0) {
      linkStart = nextIf;
      continue;
    }
    s.pos = afterElse;
    const elseBlock = parseBlock(s);
    if (elseBlock) links[links.length - 1].stmt.else = elseBlock;
    else s.pos = beforeElse;
    break;
  }
  const end = s.pos;
  for (let k = links.length - 1; k >= 0; k--) {
    const { stmt } = links[k];
    stmt.span = span(s, links[k].start, end);
    if (k + 1 < links.length) stmt.else = [links[k + 1].stmt];
  }
  return links[0].stmt;
}

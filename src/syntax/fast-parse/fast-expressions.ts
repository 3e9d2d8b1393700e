/**
 * Expressions for the fast parser: `Expr`, `Operand`, `Postfix`, `Primary` and its
 * alternatives (grammar.ohm § expressions), building the nodes `to-ast-expressions.ts`
 * builds, key order included.
 *
 * As in the grammar, binary operators are read as one flat list and `applyPrecedence`
 * (shared with the Ohm path) builds the tree; postfix steps and operator runs are loops,
 * so a long chain never recurses. String literals are `fast-strings.ts`.
 */
import type { BinaryOp, Expr } from "../ast";
import { type FlatOperand, type Located, type PrefixOp, applyPrecedence } from "../operator-precedence";
import {
  type FastState,  char, deferBegin, deferEnd, enter, identEnd, ident, isIdentPart, leave, lit,
  numberEnd, recurse, skip, span, unrecurse, word, work,
} from "./fast-scanner";
import { KEYWORDS } from "../keywords";
import { constString, stringExpr } from "./fast-strings";
import { ask, dbCall, parallelFor, streamedAskAt, toolCall } from "./fast-keyword-expressions";

// ---------------------------------------------------------------- Expr = Operand (binOp Operand)*

/** A prefix-free operand and no operator (the common case) allocates nothing here. */
const NO_PREFIXES: FlatOperand["prefixes"] = [];

export function parseExpr(s: FastState): Expr | undefined {
  recurse(s);
  const outerPeak = deferBegin(s);
  const first = parseOperand(s);
  if (!first) {
    deferEnd(s, outerPeak, 0);
    unrecurse(s);
    return undefined;
  }
  const firstPrefixes = s.prefixes;
  const firstStart = s.postStart;
  const firstEnd = s.base + s.pos;
  let operands: FlatOperand[] | undefined;
  let ops: BinaryOp[] | undefined;
  let levels = firstPrefixes.length;
  for (;;) {
    const save = s.pos;
    const op = binOp(s);
    if (op === undefined) break;
    const next = parseOperand(s);
    if (!next) {
      s.pos = save;
      break;
    }
    (operands ??= [flat(firstPrefixes, first, firstStart, firstEnd)]).push(flat(s.prefixes, next, s.postStart, s.base + s.pos));
    (ops ??= []).push(op);
    if (s.prefixes.length > levels) levels = s.prefixes.length;
  }
  // Each prefix operator of the longest run is a nesting level around every operand.
  deferEnd(s, outerPeak, levels);
  unrecurse(s);
  if (!ops) return firstPrefixes.length === 0 ? first : applyPrecedence(s.file, [flat(firstPrefixes, first, firstStart, firstEnd)], []).expr;
  return applyPrecedence(s.file, operands as FlatOperand[], ops).expr;
}

/** An operand for `applyPrecedence`: its prefixes and its postfix expression with its extent. */
function flat(prefixes: FlatOperand["prefixes"], expr: Expr, start: number, end: number): FlatOperand {
  const located: Located = { expr, start, end };
  return { prefixes, convert: () => located };
}

/**
 * `Operand = prefixOp* Postfix`: the postfix expression; its prefixes are left in
 * `s.prefixes` and its start (a file offset) in `s.postStart`.
 */
function parseOperand(s: FastState): Expr | undefined {
  work(s);
  const start = s.pos;
  const src = s.src;
  let prefixes = NO_PREFIXES;
  for (;;) {
    const save = s.pos;
    skip(s);
    const at = s.pos;
    const c = src.charCodeAt(at);
    // prefixOp = "not" ~identPart | "-" ~"0".."9"
    let op: PrefixOp | undefined;
    if (c === 110 && src.startsWith("not", at) && !isIdentPart(src.charCodeAt(at + 3))) op = "not";
    else if (c === 45 && !(src.charCodeAt(at + 1) >= 48 && src.charCodeAt(at + 1) <= 57)) op = "-";
    if (op === undefined) {
      s.pos = save;
      break;
    }
    if (prefixes === NO_PREFIXES) prefixes = [];
    prefixes.push({ op, start: s.base + at });
    s.pos = at + op.length;
  }
  const expr = parsePostfix(s);
  if (!expr) {
    s.pos = start;
    return undefined;
  }
  s.prefixes = prefixes;
  return expr;
}

/** `binOp`, after a skip (`-` before `>` is the arrow of `ask`). */
function binOp(s: FastState): BinaryOp | undefined {
  const save = s.pos;
  skip(s);
  const src = s.src;
  const at = s.pos;
  const c = src.charCodeAt(at);
  const next = src.charCodeAt(at + 1);
  let op: BinaryOp | undefined;
  let len = 1;
  if ((c === 61 || c === 33) && next === 61) [op, len] = [c === 61 ? "==" : "!=", 2];
  else if (c === 60 || c === 62) [op, len] = next === 61 ? [c === 60 ? "<=" : ">=", 2] : [c === 60 ? "<" : ">", 1];
  else if (c === 43) op = "+";
  else if (c === 45) op = next === 62 ? undefined : "-";
  else if (c === 42) op = "*";
  else if (c === 47) op = "/";
  else if (c === 37) op = "%";
  else if (c === 97 && src.startsWith("and", at) && !isIdentPart(src.charCodeAt(at + 3))) [op, len] = ["and", 3];
  else if (c === 111 && next === 114 && !isIdentPart(src.charCodeAt(at + 2))) [op, len] = ["or", 2];
  if (op === undefined) {
    s.pos = save;
    return undefined;
  }
  s.pos = at + len;
  return op;
}

// ---------------------------------------------------------------- Postfix

/** `Primary (#callOpen CallArgs | #indexOpen IndexArg | "." identName)*`; its start goes to `s.postStart`. */
export function parsePostfix(s: FastState): Expr | undefined {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  const outerPeak = deferBegin(s);
  let expr = parsePrimary(s);
  if (!expr) {
    deferEnd(s, outerPeak, 0);
    s.pos = save;
    return undefined;
  }
  let steps = 0;
  for (let next = postfixStep(s, expr, start, true); next; next = postfixStep(s, expr, start, true)) {
    expr = next;
    steps++;
  }
  // A chain of n steps nests n nodes.
  deferEnd(s, outerPeak, steps);
  s.postStart = s.base + start;
  return expr;
}

/**
 * One step of a postfix chain that starts at `start`, applied to `expr`: `#callOpen CallArgs`
 * (only with `calls`: an assignment target has none), `#indexOpen IndexArg` or `"." identName`.
 * The new expression, or undefined with pos kept.
 */
export function postfixStep(s: FastState, expr: Expr, start: number, calls: boolean): Expr | undefined {
  const src = s.src;
  const before = s.pos;
  let i = before;
  while (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9) i++;
  const c = src.charCodeAt(i);
  if (c === 40 && calls) {
    s.pos = i + 1;
    const args = parseListThen(s, callArg, 41);
    if (args) return { kind: "Call", callee: expr, args, span: span(s, start, s.pos) };
  } else if (c === 91) {
    s.pos = i + 1;
    const index = parseExpr(s);
    if (index && char(s, 93)) return { kind: "Index", object: expr, index, span: span(s, start, s.pos) };
  } else if (char(s, 46)) {
    const name = word(s);
    if (name >= 0) return { kind: "Member", object: expr, property: src.slice(name, s.pos), span: span(s, start, s.pos) };
  }
  s.pos = before;
  return undefined;
}

/** `CallArg = Lambda | Expr`: a lambda is tried first and gives way to a parenthesised name. */
function callArg(s: FastState): Expr | undefined {
  return lambda(s) ?? parseExpr(s);
}

/** `Lambda = "(" ident ")" "=>" Expr`: one nesting level, as the Ohm path counts it. */
function lambda(s: FastState): Expr | undefined {
  const save = s.pos;
  if (char(s, 40)) {
    const start = s.pos - 1;
    const param = ident(s);
    const paramEnd = s.pos;
    if (param >= 0 && char(s, 41) && lit(s, "=>")) {
      enter(s);
      const body = parseExpr(s);
      leave(s);
      if (body) return { kind: "Lambda", param: s.src.slice(param, paramEnd), paramSpan: span(s, param, paramEnd), body, span: span(s, start, s.pos) };
    }
  }
  s.pos = save;
  return undefined;
}

/**
 * `(Xs ","?)? close` where `Xs = X ("," X)*`: the items, or undefined (pos kept). The close
 * is a one-character terminal (`)` `]` `}`).
 */
export function parseListThen<T>(s: FastState, item: (s: FastState) => T | undefined, close: number): T[] | undefined {
  const save = s.pos;
  const items: T[] = [];
  const first = item(s);
  if (first !== undefined) {
    items.push(first);
    for (;;) {
      const before = s.pos;
      if (!char(s, 44)) break;
      const next = item(s);
      if (next === undefined) {
        s.pos = before;
        break;
      }
      items.push(next);
    }
    char(s, 44);
  }
  if (char(s, close)) return items;
  s.pos = save;
  return undefined;
}

// ---------------------------------------------------------------- Primary

/** `Primary` (pos is after the skip): its alternatives in the grammar's order. */
function parsePrimary(s: FastState): Expr | undefined {
  const src = s.src;
  const start = s.pos;
  const c = src.charCodeAt(start);
  const end = identEnd(src, start);
  if (end >= 0) {
    const name = src.slice(start, end);
    switch (name) {
      case "true":
      case "false":
        s.pos = end;
        return { kind: "Bool", value: name === "true", span: span(s, start, end) };
      case "null":
        s.pos = end;
        return { kind: "Null", span: span(s, start, end) };
      case "tool":
        return bracketed(s, toolCall);
      case "ask":
        return bracketed(s, ask);
      case "stream": {
        // `stream ask …`: only with `ask` next on the same line; else `stream` is a name.
        const at = streamedAskAt(src, end);
        if (at >= 0) {
          const expr = bracketed(s, (st, from) => {
            st.pos = at;
            const inner = ask(st, at);
            if (inner?.kind !== "Ask") return undefined;
            inner.stream = true;
            inner.span = span(st, from, inner.span.end);
            return inner;
          });
          if (expr) return expr;
        }
        break;
      }
      case "query":
      case "command":
        return bracketed(s, dbCall);
      case "parallel": {
        // `parallel for …`; else `parallel` is a name (it is contextual, as in the grammar).
        const expr = bracketed(s, parallelFor);
        if (expr) return expr;
        break;
      }
    }
    if (KEYWORDS.has(name)) return undefined;
    s.pos = end;
    return { kind: "Name", name, span: span(s, start, end) };
  }
  if (c === 34) return stringExpr(s);
  if (c === 45 || (c >= 48 && c <= 57)) {
    const numEnd = numberEnd(src, start);
    if (numEnd < 0) return undefined;
    s.pos = numEnd;
    return { kind: "Num", value: Number(src.slice(start, numEnd)), span: span(s, start, numEnd) };
  }
  if (c === 40) return bracketed(s, paren);
  if (c === 91) return bracketed(s, arrayLit);
  if (c === 123) return bracketed(s, objectLit);
  return undefined;
}

/** One nesting level around a bracketed primary (pos at its first token; kept on failure). */
function bracketed(s: FastState, inner: (s: FastState, start: number) => Expr | undefined): Expr | undefined {
  const start = s.pos;
  enter(s);
  const expr = inner(s, start);
  leave(s);
  if (!expr) s.pos = start;
  return expr;
}

const paren = (s: FastState): Expr | undefined => {
  s.pos++;
  const inner = parseExpr(s);
  return inner && char(s, 41) ? inner : undefined;
};

function arrayLit(s: FastState, start: number): Expr | undefined {
  s.pos++;
  const items = parseListThen(s, parseExpr, 93);
  return items && { kind: "Array", items, span: span(s, start, s.pos) };
}

function objectLit(s: FastState, start: number): Expr | undefined {
  s.pos++;
  const entries = parseListThen(s, objEntry, 125);
  return entries && { kind: "Object", entries, span: span(s, start, s.pos) };
}

/** `ObjEntry = entryKey ":" Expr`. */
function objEntry(s: FastState): Extract<Expr, { kind: "Object" }>["entries"][number] | undefined {
  const save = s.pos;
  const key = entryKey(s);
  if (key) {
    const keySpan = span(s, key.start, s.pos);
    const value = char(s, 58) ? parseExpr(s) : undefined;
    if (value) return { key: key.text, keySpan, value };
  }
  s.pos = save;
  return undefined;
}

/** `entryKey = identName | string`, after a skip: its text (a string's, decoded) and start. */
export function entryKey(s: FastState): { text: string; start: number } | undefined {
  const start = word(s);
  if (start >= 0) return { text: s.src.slice(start, s.pos), start };
  const save = s.pos;
  skip(s);
  const at = s.pos;
  const text = s.src.charCodeAt(at) === 34 ? constString(s) : undefined;
  if (text === undefined) s.pos = save;
  return text === undefined ? undefined : { text, start: at };
}

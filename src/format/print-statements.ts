/**
 * Statements and blocks: one statement a line (`;` separators become line breaks),
 * blocks indented by two spaces, `} else {` and `} catch e {` on the closing brace's
 * line, `else { if … }` written as `else if`. Where a block opens and closes is found
 * in the source (the AST keeps statement spans, not brace positions), skipping comments.
 */
import type { Stmt } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";
import type { PrintContext } from "./print-context";
import { printExpr, printType, unprintable } from "./print-expressions";

/**
 * Writes the item at `pos` that is `header {`, its block's lines (`writeBody`, at
 * `depth + 1`) and the closing brace; `header {}` when the block holds nothing.
 */
export function printBlock(
  p: PrintContext, pos: number, depth: number, header: () => string, braces: [number, number], items: number,
  writeBody: () => void,
): void {
  const [open, close] = braces;
  if (items === 0 && !p.commentInside(open, close)) {
    p.item(pos, close + 1, depth, () => `${header()} {}`);
    return;
  }
  p.open(pos, depth, () => `${header()} {`, open);
  writeBody();
  p.close(close, depth, "}");
}

/** Writes a block of statements (see printBlock). */
const printStmtBlock = (
  p: PrintContext, pos: number, depth: number, header: () => string, braces: [number, number], body: Stmt[],
) => printBlock(p, pos, depth, header, braces, body.length, () => body.forEach((stmt) => printStmt(stmt, p, depth + 1)));

/** The brace that closes a block whose statements are `body`, opened at `open`. */
const closingBrace = (p: PrintContext, open: number, body: Stmt[]) =>
  p.skipTo(body.length > 0 ? body[body.length - 1].span.end : open + 1, "}");

export function printStmt(s: Stmt, p: PrintContext, depth: number): void {
  const expr = (e: Parameters<typeof printExpr>[0]) => printExpr(e, p, depth);
  const whole = s.kind === "Assign" || s.kind === "Return" ? s.value : s.kind === "ExprStmt" ? s.expr : undefined;
  if (whole?.kind === "ParallelFor") {
    const lead = s.kind === "Assign" ? `${s.name}${s.type ? `: ${printType(s.type)}` : ""} = ` : s.kind === "Return" ? "return " : "";
    const loop = whole.loop;
    const open = p.skipTo((whole.limit ?? loop.iterable).span.end, "{");
    const limit = whole.limit ? ` limit ${expr(whole.limit)}` : "";
    printStmtBlock(p, s.span.start, depth, () => `${lead}parallel for ${loop.name} in ${expr(loop.iterable)}${limit}`, [open, loop.span.end - 1], loop.body);
    return;
  }
  switch (s.kind) {
    case "Assign": {
      const type = s.type ? `: ${printType(s.type)}` : "";
      p.item(s.span.start, s.span.end, depth, () => `${s.name}${type} = ${expr(s.value)}`);
      return;
    }
    case "ExprStmt":
      p.item(s.span.start, s.span.end, depth, () => expr(s.expr));
      return;
    case "Return":
      p.item(s.span.start, s.span.end, depth, () => (s.value ? `return ${expr(s.value!)}` : "return"));
      return;
    case "For": {
      const open = p.skipTo(s.iterable.span.end, "{");
      printStmtBlock(p, s.span.start, depth, () => `for ${s.name} in ${expr(s.iterable)}`, [open, s.span.end - 1], s.body);
      return;
    }
    case "Parallel": {
      const open = p.skipTo(s.span.start + "parallel".length, "{");
      printStmtBlock(p, s.span.start, depth, () => "parallel", [open, s.span.end - 1], s.body);
      return;
    }
    case "While": {
      const open = p.skipTo(s.cond.span.end, "{");
      printStmtBlock(p, s.span.start, depth, () => `while ${expr(s.cond)}`, [open, s.span.end - 1], s.body);
      return;
    }
    case "Assert":
      p.item(s.span.start, s.span.end, depth, () => `assert ${expr(s.cond)}${s.message ? `, ${expr(s.message)}` : ""}`);
      return;
    case "Score":
      p.item(s.span.start, s.span.end, depth, () => `score ${p.text(s.nameSpan)} ${expr(s.value)}`);
      return;
    case "Break":
    case "Continue":
      p.item(s.span.start, s.span.end, depth, () => (s.kind === "Break" ? "break" : "continue"));
      return;
    case "AssignInto":
      p.item(s.span.start, s.span.end, depth, () => `${expr(s.target)} = ${expr(s.value)}`);
      return;
    case "If":
      printIf(s, p, depth, s.span.start, "if");
      return;
    case "Try": {
      const open = p.skipTo(s.span.start + "try".length, "{");
      const close = closingBrace(p, open, s.body);
      const handlerOpen = p.skipTo(close + 1, "{");
      p.open(s.span.start, depth, "try {", open);
      for (const stmt of s.body) printStmt(stmt, p, depth + 1);
      p.close(close, depth, `} catch ${s.errName} {`, handlerOpen);
      for (const stmt of s.handler) printStmt(stmt, p, depth + 1);
      p.close(s.span.end - 1, depth, "}");
      return;
    }
    default:
      assertNever(s, unprintable);
  }
}

type IfStmt = Extract<Stmt, { kind: "If" }>;

/** `if`, and an `else if` chain on the closing braces' lines. */
function printIf(s: IfStmt, p: PrintContext, depth: number, pos: number, keyword: string): void {
  const header = () => `${keyword} ${printExpr(s.cond, p, depth)} {`;
  const open = p.skipTo(s.cond.span.end, "{");
  const close = closingBrace(p, open, s.then);
  if (keyword === "if") p.open(pos, depth, header, open);
  else p.close(pos, depth, header, open);
  for (const stmt of s.then) printStmt(stmt, p, depth + 1);
  if (!s.else) {
    p.close(close, depth, "}");
    return;
  }
  const [only] = s.else;
  if (s.else.length === 1 && only.kind === "If") {
    printIf(only, p, depth, close, "} else if");
    return;
  }
  p.close(close, depth, "} else {", p.skipTo(close + 1, "{"));
  for (const stmt of s.else) printStmt(stmt, p, depth + 1);
  p.close(s.span.end - 1, depth, "}");
}

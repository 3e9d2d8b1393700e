/**
 * Expressions, types, annotations and config values, printed in the canonical layout:
 * one space around binary operators and after commas and colons, `{ a: 1 }` with inner
 * spaces, and a list or object on one line when the source had it on one line — else one
 * item a line, each with a trailing comma (config blocks: none), so adding an item
 * changes one line. Nothing is aligned.
 *
 * Parentheses are not in the AST: the printer writes the ones precedence needs, and
 * keeps a pair the source had around an operator expression (`not (a == b)`), which
 * says how to read it. Leaf tokens come from the source text unchanged.
 */
import type { Annotation, ConfigValue, Entry, Expr, Field, Span, TypeRef } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";
import { BINARY_PRECEDENCE, PREFIX_PRECEDENCE } from "../syntax/operator-precedence";
import { type PrintContext, UnprintableNode } from "./print-context";

/** Binds tighter than any operator: names, literals, calls, members. */
const POSTFIX = 8;

const precedence = (e: Expr): number =>
  e.kind === "Binary" ? BINARY_PRECEDENCE[e.op] : e.kind === "Unary" ? PREFIX_PRECEDENCE[e.op] : e.kind === "Ask" || e.kind === "Lambda" ? 0 : POSTFIX;

export const unprintable = (node: { kind: string; span?: Span }): never => {
  throw new UnprintableNode(node.kind, node.span);
};

/** A constant string re-encoded (enum values keep no source span of their own). */
const constStringLiteral = (value: string): string =>
  `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`;

export function printType(t: TypeRef): string {
  switch (t.kind) {
    case "PrimType":
    case "NamedType":
      return t.name;
    case "ArrayType":
      return `${printType(t.element)}[]`;
    case "EnumType":
      return `enum[${t.values.map(constStringLiteral).join(", ")}]`;
    default:
      return assertNever(t, unprintable);
  }
}

export function printAnnotation(a: Annotation, p: PrintContext): string {
  return a.args.length === 0 ? `@${a.name}` : `@${a.name}(${a.args.map((arg) => p.text(arg.span)).join(", ")})`;
}

export function printField(f: Field, p: PrintContext): string {
  const annotations = f.annotations.map((a) => ` ${printAnnotation(a, p)}`).join("");
  return `${f.name}${f.optional ? "?" : ""}: ${printType(f.type)}${annotations}`;
}

/** One item of a bracketed list: where it is, and its text at a given depth. */
export interface ListItem {
  start: number;
  end: number;
  print(depth: number): string;
}

/**
 * A bracketed list on one line, or (when `span` spans lines in the source) one item a
 * line at `depth + 1`, each with its comments, closed at `depth`.
 */
export function printList(
  p: PrintContext, span: Span, depth: number, brackets: [string, string], items: ListItem[], separator: "," | "",
): string {
  const [open, close] = brackets;
  if (items.length === 0 && !p.commentInside(span.start, span.end)) return open + close;
  if (!p.text(span).includes("\n")) {
    const inner = items.map((item) => item.print(depth)).join(", ");
    return open === "{" ? `{ ${inner} }` : open + inner + close;
  }
  const lines: string[] = [];
  items.forEach((item, i) => {
    const { lines: comments, blank } = p.leadingLines(item.start, depth + 1, i === 0);
    lines.push(...comments);
    if (blank) lines.push("");
    const text = item.print(depth + 1);
    lines.push(p.indent(depth + 1) + text + separator + p.trailing(item.end));
  });
  lines.push(...p.leadingLines(span.end - 1, depth + 1, items.length === 0).lines);
  return `${open}\n${lines.join("\n")}\n${p.indent(depth)}${close}`;
}

export function printConfigValue(v: ConfigValue, p: PrintContext, depth: number): string {
  switch (v.kind) {
    case "Lit":
      return p.text(v.span);
    case "Path": {
      // `Refunds(user).handle` (issue #27) and `issue_refund when user.can_refund` (issue #25): items of an agent's `tools`.
      const name = v.args ? `${v.parts[0]}(${v.args.map((a) => printExpr(a, p, depth)).join(", ")}).${v.parts[1]}` : v.parts.join(".");
      return v.when ? `${name} when ${printExpr(v.when, p, depth)}` : name;
    }
    case "List":
      return printList(p, v.span, depth, ["[", "]"], v.items.map((item) => ({
        start: item.span.start, end: item.kind === "Path" && item.when ? item.when.span.end : item.span.end, print: (d) => printConfigValue(item, p, d),
      })), ",");
    case "Obj":
      return printList(p, v.span, depth, ["{", "}"], v.entries.map((e) => entryItem(e, p)), "");
    default:
      return assertNever(v, unprintable);
  }
}

/** `key: value` in a declaration block or a nested config object. */
export const printEntry = (e: Entry, p: PrintContext, depth: number): string =>
  `${p.text(e.keySpan)}: ${printConfigValue(e.value, p, depth)}`;

const entryItem = (e: Entry, p: PrintContext): ListItem => ({
  start: e.span.start, end: e.span.end, print: (d) => printEntry(e, p, d),
});

/** Whether the source wrapped `child` in parentheses: a `(` in the gap `[from, child)`, comments aside. */
function hadParens(p: PrintContext, from: number, child: Expr): boolean {
  if (precedence(child) === POSTFIX) return false;
  const gap = p.source.slice(from, child.span.start).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "");
  return gap.includes("(");
}

export function printExpr(e: Expr, p: PrintContext, depth: number): string {
  const sub = (x: Expr) => printExpr(x, p, depth);
  const wrapped = (x: Expr, parens: boolean) => (parens ? `(${sub(x)})` : sub(x));
  /** The object of a call, member or index: anything looser than postfix needs parentheses. */
  const postfixObject = (x: Expr) => wrapped(x, precedence(x) < POSTFIX);
  switch (e.kind) {
    case "Num":
    case "Str":
      return p.text(e.span);
    case "Bool":
      return String(e.value);
    case "Null":
      return "null";
    case "Name":
      return e.name;
    case "Array":
      return printList(p, e.span, depth, ["[", "]"], e.items.map((item) => ({
        start: item.span.start, end: item.span.end, print: (d) => printExpr(item, p, d),
      })), ",");
    case "Object":
      return printList(p, e.span, depth, ["{", "}"], e.entries.map((entry) => ({
        start: entry.keySpan.start,
        end: entry.value.span.end,
        print: (d) => `${p.text(entry.keySpan)}: ${printExpr(entry.value, p, d)}`,
      })), ",");
    case "Member":
      return `${postfixObject(e.object)}.${e.property}`;
    case "Index":
      return `${postfixObject(e.object)}[${sub(e.index)}]`;
    case "Call":
      return `${postfixObject(e.callee)}(${e.args.map(sub).join(", ")})`;
    case "Binary": {
      // A left operand printed without parentheses is folded into this loop, bottom up: a
      // flat `a and b and …` of n terms is n levels deep on its left (20,000 must not recurse).
      const leftParens = (b: Extract<Expr, { kind: "Binary" }>) => precedence(b.left) < BINARY_PRECEDENCE[b.op] || hadParens(p, b.span.start, b.left);
      const spine = [e];
      for (let b = e; b.left.kind === "Binary" && !leftParens(b); b = b.left) spine.push(b.left);
      const bottom = spine[spine.length - 1];
      let out = wrapped(bottom.left, leftParens(bottom));
      for (let i = spine.length - 1; i >= 0; i--) {
        const b = spine[i];
        // Left-associative: a right operand of the same level needs its parentheses.
        const right = wrapped(b.right, precedence(b.right) <= BINARY_PRECEDENCE[b.op] || hadParens(p, b.left.span.end, b.right));
        out = `${out} ${b.op} ${right}`;
      }
      return out;
    }
    case "Unary": {
      const operand = wrapped(e.operand, precedence(e.operand) < PREFIX_PRECEDENCE[e.op] || hadParens(p, e.span.start, e.operand));
      if (e.op === "not") return `not ${operand}`;
      // `-1` is a number literal and `--x` reads badly: `- 1` and `- -x` stay a unary minus.
      return /^[-0-9]/.test(operand) ? `- ${operand}` : `-${operand}`;
    }
    case "Lambda":
      return `(${e.param}) => ${sub(e.body)}`;
    case "ToolCall":
      return `tool ${e.tool}(${sub(e.arg)})`;
    case "DbCall":
      return `${e.op} ${e.name}(${sub(e.arg)})`;
    // Only as a statement's whole value (`x = parallel for …`), which `printStmt` lays out
    // over lines; nested in an expression the checker rejects it (E1203), and `fmt` leaves it.
    case "ParallelFor":
      return unprintable(e);
    case "Ask": {
      const prompt = wrapped(e.prompt, e.prompt.kind === "Ask");
      return `${e.stream ? "stream " : ""}ask ${prompt} -> ${printType(e.target)}${e.usingTool ? ` using tool ${e.usingTool.name}` : ""}${e.thread ? ` in ${sub(e.thread)}` : ""}`;
    }
    default:
      return assertNever(e, unprintable);
  }
}

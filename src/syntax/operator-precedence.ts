/**
 * Operator precedence, applied to the flat `Operand (binOp Operand)*` list the grammar
 * matches (one grammar level instead of eight keeps the parser fast).
 *
 * Lowest to highest: `or` < `and` < `not` < comparisons < `+ -` < `* / %` < unary `-`
 * < postfix. Binary operators are left-associative. A prefix operator takes as its
 * operand everything that binds tighter than itself, so `not a == b` is
 * `not (a == b)` and `-a * b` is `(-a) * b`.
 */
import type { BinaryOp, Expr, Span } from "./ast";

export const BINARY_PRECEDENCE: Record<BinaryOp, number> = {
  or: 1,
  and: 2,
  "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
  "+": 5, "-": 5,
  "*": 6, "/": 6, "%": 6,
};
export const PREFIX_PRECEDENCE = { not: 3, "-": 7 } as const;

export type PrefixOp = keyof typeof PREFIX_PRECEDENCE;

/** An expression with the file offsets of the source text it came from (parentheses included). */
export interface Located {
  expr: Expr;
  start: number;
  end: number;
}

export interface FlatOperand {
  prefixes: { op: PrefixOp; start: number }[];
  /** Converts the operand's postfix expression (called once, in source order). */
  convert(): Located;
}

/** Builds the expression tree of `operands[0] ops[0] operands[1] …`. */
export function applyPrecedence(file: string, operands: FlatOperand[], ops: BinaryOp[]): Located {
  let operandIndex = 0;
  let prefixIndex = 0;
  let opIndex = 0;
  const span = (start: number, end: number): Span => ({ file, start, end });

  const unary = (): Located => {
    const operand = operands[operandIndex];
    if (prefixIndex < operand.prefixes.length) {
      const { op, start } = operand.prefixes[prefixIndex++];
      const inner = level(PREFIX_PRECEDENCE[op]);
      return { expr: { kind: "Unary", op, operand: inner.expr, span: span(start, inner.end) }, start, end: inner.end };
    }
    operandIndex++;
    prefixIndex = 0;
    return operand.convert();
  };

  const level = (min: number): Located => {
    let left = unary();
    while (opIndex < ops.length && BINARY_PRECEDENCE[ops[opIndex]] >= min) {
      const op = ops[opIndex++];
      const right = level(BINARY_PRECEDENCE[op] + 1);
      left = {
        expr: { kind: "Binary", op, left: left.expr, right: right.expr, span: span(left.start, right.end) },
        start: left.start,
        end: right.end,
      };
    }
    return left;
  };

  return level(0);
}

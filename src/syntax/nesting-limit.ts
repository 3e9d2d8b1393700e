/**
 * The nesting limit, enforced while the CST is converted. A level is what the lexical
 * pre-scan counts too — a bracket (`(…)` `[…]` `{…}`: parentheses, lists, objects,
 * blocks, calls), an `ask`, an interpolation `{…}` in a string — and, as they nest AST
 * nodes without brackets, each operator of a run of prefix operators (`- - x`) and of a
 * chain of postfix operations (`a.b.c`). The AST is walked recursively by the checker and the interpreter, so its
 * depth must be bounded; beyond `MAX_NESTING` the program gets one error at the place
 * that crosses the limit instead of a stack overflow somewhere later. Left-associative
 * binary chains (`a + b + …`) are not nesting: every stage folds them iteratively.
 */
import type * as ohm from "ohm-js";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import { error } from "../diagnostics/diagnostic";
import { MAX_NESTING } from "./lexical-scan";
import { parseContext } from "./parse-context";

/** The message of the nesting error (also used when Ohm itself runs out of stack). */
export const NESTING_MESSAGE = `Nesting deeper than ${MAX_NESTING} levels`;

/**
 * Goes `levels` deeper for the conversion of `node`'s insides; false (after recording
 * the error once, at file offset `at`, by default the start of `node`) when that passes
 * the limit, and then the caller converts nothing below. Pair a true result with
 * `leaveNesting(levels)`. (Inline calls rather than a wrapper taking a closure: this
 * runs for every bracket of every program.)
 */
export function enterNesting(node: ohm.Node, levels = 1, at?: number): boolean {
  const ctx = parseContext();
  const { nesting } = ctx;
  if (nesting.depth + levels > MAX_NESTING) {
    if (!nesting.reported) {
      nesting.reported = true;
      const start = at ?? ctx.base + node.source.startIdx;
      ctx.diagnostics.push(error(NESTING_MESSAGE, { file: ctx.file, start, end: start }, { code: PARSE_CODES.nesting }));
    }
    return false;
  }
  nesting.depth += levels;
  return true;
}

export function leaveNesting(levels = 1): void {
  parseContext().nesting.depth -= levels;
}

/**
 * One row per JSON Schema keyword an annotation becomes: whether a value passes it, and
 * what it expects, in words. Issue messages are `<path> <expectation> (<rule>).` — e.g.
 * `calculate.input.a must be <= 1000000 (@range).`
 *
 * The checks mirror TypeBox's compiled code exactly (string length in UTF-16 units, the
 * pattern as `new RegExp(pattern)` without flags, formats from the shared FormatRegistry).
 */
import type { Constraint, ConstraintKeyword } from "./shape";
import { formatCheck } from "./formats";

interface KeywordCheck {
  passes(value: unknown, c: Constraint): boolean;
  expectation(c: Constraint): string;
}

const plural = (n: number | string, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export const CONSTRAINT_CHECKS: Record<ConstraintKeyword, KeywordCheck> = {
  minimum: { passes: (v, c) => (v as number) >= (c.limit as number), expectation: (c) => `must be >= ${c.limit}` },
  maximum: { passes: (v, c) => (v as number) <= (c.limit as number), expectation: (c) => `must be <= ${c.limit}` },
  minLength: {
    passes: (v, c) => (v as string).length >= (c.limit as number),
    expectation: (c) => `must be at least ${plural(c.limit, "character")} long`,
  },
  maxLength: {
    passes: (v, c) => (v as string).length <= (c.limit as number),
    expectation: (c) => `must be at most ${plural(c.limit, "character")} long`,
  },
  pattern: { passes: (v, c) => c.regex!.test(v as string), expectation: (c) => `must match the pattern /${c.limit}/` },
  format: { passes: (v, c) => formatCheck(c.limit as string)(v as string), expectation: (c) => `must be a valid ${c.limit}` },
  minItems: {
    passes: (v, c) => (v as unknown[]).length >= (c.limit as number),
    expectation: (c) => `must have at least ${plural(c.limit, "item")}`,
  },
  maxItems: {
    passes: (v, c) => (v as unknown[]).length <= (c.limit as number),
    expectation: (c) => `must have at most ${plural(c.limit, "item")}`,
  },
};

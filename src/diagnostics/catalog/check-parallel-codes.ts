/**
 * E1201–E1205: the checker's rules about `parallel` (issue #27 §4, docs/language/functions.md
 * § Parallel): branches of `parallel { }` that would race on a variable, a `parallel for`
 * where its body could not be checked (nested inside another expression), a `break`,
 * `continue` or `return` that would leave a branch, and a `limit` that is no whole number of
 * at least 1. One entry per diagnostic, as in `check-statement-codes.ts` (joined in
 * `check-codes.ts`); the rule that reports them is `src/check/rules/parallel.ts`.
 */
import type { WordedEntry } from "./catalog-entry";

export const CHECK_PARALLEL_DIAGNOSTICS = {
  parallelSameName: {
    code: "E1201",
    title: "two branches of `parallel` assign the same variable",
    text: (name: string) => `Two branches of 'parallel' assign '${name}': which value it holds after the block would depend on timing.`,
    explanation:
      "The statements of `parallel { … }` run at the same time, and what they assign is visible after the block. If two of them assign the same variable, its value after the block depends on which finished last, so this is an error: give each branch its own name and combine them after the block.",
    example: "fn f(x: int) -> int { x }\nparallel {\n  a = f(1)\n  a = f(2)\n}",
  },
  parallelReadsOther: {
    code: "E1202",
    title: "a branch of `parallel` reads a variable another branch assigns",
    text: (name: string) => `A branch of 'parallel' reads '${name}', which another branch of the same block assigns: branches run at the same time, so it may not be assigned yet.`,
    explanation:
      "The statements of `parallel { … }` run at the same time: a branch that reads a variable another branch assigns would see it before or after that assignment depending on timing. Read it after the block, or compute it before.",
    example: "fn f(x: int) -> int { x }\nparallel {\n  a = f(1)\n  b = f(a)\n}",
  },
  parallelForPlacement: {
    code: "E1203",
    title: "`parallel for` inside another expression",
    text: () => "'parallel for' must be the whole value of an assignment, a 'return' or a statement: assign it to a variable first.",
    explanation:
      "A `parallel for` holds a block of statements; it is written as the whole value of `x = …`, `x: T = …`, `return …` or as a statement of its own, where its body is a block like any other. Inside another expression (an argument, an operand) assign it to a variable first and use the variable.",
    example: "xs = [1, 2]\nprint(parallel for x in xs { x })",
  },
  parallelJump: {
    code: "E1204",
    title: "`break`, `continue` or `return` leaving a branch of `parallel`",
    text: (word: string) => `'${word}' cannot leave a branch of 'parallel': branches run at the same time and each runs to its end (or fails).`,
    explanation:
      "Each branch of `parallel { … }` and each turn of a `parallel for` body runs concurrently with the others, so there is no loop to `break` out of or `continue`, and no single point to `return` from. A loop written inside a branch may still use `break` and `continue`; to stop every branch, fail one (an error aborts the others).",
    example: "xs = [1, 2]\nys = parallel for x in xs {\n  if x > 1 { break }\n  x\n}",
  },
  parallelLimit: {
    code: "E1205",
    title: "`parallel for` limit that is not a whole number of at least 1",
    text: (what: string) => `The limit of 'parallel for' must be a whole number of at least 1, not ${what}.`,
    explanation:
      "`parallel for x in xs limit N { … }` runs at most N bodies at once: N is an `int` of at least 1 (without `limit`, the config's `parallel_limit`, 8 by default). A limit known only at run time that is not such a number fails there with RUNTIME_ERROR.",
    example: "xs = [1, 2]\nys = parallel for x in xs limit 0 { x }",
  },
} as const satisfies Record<string, WordedEntry>;

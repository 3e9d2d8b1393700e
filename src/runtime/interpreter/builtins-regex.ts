/**
 * The regular-expression and padding builtins (issue #28 §2). Patterns are JavaScript's
 * syntax with the `u` flag (language/regex-pattern.ts); a pattern that does not compile
 * is a RUNTIME_ERROR naming it (the checker already refuses a constant one, E0320).
 *
 * - `regex_match(s, p)`: the first match as `[whole, group1, …]` (a group that did not
 *   take part is ""), or null when nothing matches.
 * - `regex_find_all(s, p)`: every match's whole text, left to right.
 * - `regex_replace(s, p, with)`: every match replaced; `$1`… in `with` is a group, `$&` the
 *   whole match, `$$` a dollar sign.
 * - `pad_start(s, width, fill?)`, `pad_end(…)`: `s` filled to `width` characters at the
 *   start or end with `fill` (default one space; repeated and cut as needed); a string
 *   already as wide is returned as it is.
 * A pattern runs on JavaScript's backtracking engine: a pattern such as `(a+)+$` can take
 * very long on a long input. Keep patterns simple on text from outside.
 */
import type { Span } from "../../syntax/ast";
import type { BuiltinImpl, BuiltinTable } from "./builtins";
import { badValue, intArg, quoted, stringArg } from "./builtin-args";
import type { Runtime } from "./runtime-context";
import { compilePattern } from "../../language/regex-pattern";

function patternArg(rt: Runtime, name: string, v: Parameters<typeof stringArg>[2], span: Span): RegExp {
  const pattern = stringArg(rt, name, v, span);
  const re = compilePattern(pattern);
  return typeof re === "string" ? badValue(rt, `${name}(): ${quoted(pattern)} is not a regular expression (${re})`, span) : re;
}

/** Width is capped so a typo cannot build a string of gigabytes. */
const MAX_PAD_WIDTH = 1_000_000;

const padder = (name: "pad_start" | "pad_end"): BuiltinImpl => ({
  run([s, w, f], rt, span) {
    const text = stringArg(rt, name, s, span);
    const width = intArg(rt, name, w, span, "a width (an int)");
    if (width > MAX_PAD_WIDTH) return badValue(rt, `${name}() width ${width} is over the limit of ${MAX_PAD_WIDTH}`, span);
    const fill = f === undefined || f === null ? " " : stringArg(rt, name, f, span);
    if (fill === "") return badValue(rt, `${name}() cannot pad with the empty string`, span);
    return name === "pad_start" ? text.padStart(width, fill) : text.padEnd(width, fill);
  },
});

export const REGEX_BUILTINS = {
  regex_match: {
    run([s, p], rt, span) {
      const re = patternArg(rt, "regex_match", p, span);
      const m = re.exec(stringArg(rt, "regex_match", s, span));
      re.lastIndex = 0;
      return m ? m.map((g) => g ?? "") : null;
    },
  },
  regex_find_all: {
    run([s, p], rt, span) {
      const re = patternArg(rt, "regex_find_all", p, span);
      return [...stringArg(rt, "regex_find_all", s, span).matchAll(re)].map((m) => m[0]);
    },
  },
  regex_replace: {
    run([s, p, to], rt, span) {
      const re = patternArg(rt, "regex_replace", p, span);
      return stringArg(rt, "regex_replace", s, span).replace(re, stringArg(rt, "regex_replace", to, span));
    },
  },
  pad_start: padder("pad_start"),
  pad_end: padder("pad_end"),
} satisfies BuiltinTable;

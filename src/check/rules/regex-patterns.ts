/**
 * E0320: a regex builtin (`regex_match`, `regex_find_all`, `regex_replace`) called with a
 * constant pattern that does not compile. Compiled with the runtime's own reading
 * (language/regex-pattern.ts), so what passes here compiles there; a pattern built at run
 * time is the runtime's to refuse (RUNTIME_ERROR naming it).
 */
import { compilePattern } from "../../language/regex-pattern";
import type { CheckContext } from "../context";
import { typeMessages } from "../types/type-messages";
import { typesOf } from "../types/typed-program";

const REGEX_BUILTINS = new Set(["regex_match", "regex_find_all", "regex_replace"]);

export function regexPatterns(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.badRegexPattern;
  for (const e of typed.found.calls) {
    // A user fn of the same name shadows the builtin (typed.callees holds the calls it resolves).
    if (e.callee.kind !== "Name" || typed.callees.has(e) || !REGEX_BUILTINS.has(e.callee.name)) continue;
    const pattern = e.args[1];
    // A constant: a string literal without interpolation.
    if (pattern?.kind !== "Str" || pattern.parts.some((p) => typeof p !== "string")) continue;
    const text = pattern.parts.join("");
    const compiled = compilePattern(text);
    if (typeof compiled === "string") ctx.report(m.text(e.callee.name, text, compiled), pattern.span, { code: m.code });
  }
}

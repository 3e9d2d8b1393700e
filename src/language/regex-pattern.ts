/**
 * What a regular expression of the regex builtins (`regex_match`, `regex_find_all`,
 * `regex_replace`) is: JavaScript's syntax with the `u` (Unicode) flag, no other flags —
 * `(?i)` is not supported; write `[Aa]`. One reading, shared by the checker (a constant
 * pattern that does not compile is E0320) and the runtime (one computed at run time is a
 * RUNTIME_ERROR naming it), so the two never disagree.
 */

const compiled = new Map<string, RegExp | string>();
const CACHE_LIMIT = 256;

/** The pattern compiled (global, for finding every match), or the engine's reason it is not a pattern. */
export function compilePattern(pattern: string): RegExp | string {
  let hit = compiled.get(pattern);
  if (hit === undefined) {
    try {
      hit = new RegExp(pattern, "gu");
    } catch (e) {
      hit = (e as Error).message.replace(/^Invalid regular expression: /, "");
    }
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(pattern, hit);
  }
  if (typeof hit !== "string") hit.lastIndex = 0;
  return hit;
}

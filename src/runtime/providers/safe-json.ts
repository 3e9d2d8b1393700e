/**
 * JSON from a model or a provider, parsed so it cannot reach a prototype.
 *
 * `JSON.parse` itself only creates own properties, but a `__proto__` key survives as an own
 * property that any later `target[key] = value` copy would turn into a prototype write. So
 * `__proto__` keys are dropped while parsing. A `constructor` key stays an ordinary own data
 * property (the interpreter and the validators read own properties only), which is harmless.
 * The reviver costs time, so it only runs when the text could hold such a key (also spelt
 * with `\u` escapes).
 */
const dropProto = (key: string, value: unknown): unknown => (key === "__proto__" ? undefined : value);

export function safeJsonParse(text: string): unknown {
  const risky = text.includes("__proto__") || text.includes("\\u");
  return risky ? JSON.parse(text, dropProto) : JSON.parse(text);
}

/** Parse, or say why not in one short line. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: safeJsonParse(text) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

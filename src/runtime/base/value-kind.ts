/**
 * A value's kind for a message, without printing the value (it may hold data or secrets):
 * `null`, `nothing` (undefined), `an array`, `an object`, `a string`, `a number`, `a function`…
 * One wording for every "must be …, got <kind>" message: tool outputs, query rows, exports.
 */
export const kindOf = (v: unknown): string =>
  v === null ? "null" : v === undefined ? "nothing" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;

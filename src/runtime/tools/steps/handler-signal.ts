/**
 * Whether a handler can read the AbortSignal (its second argument, spec §10), decided once
 * when the handler is bound. Making the signal costs an AbortController, about 0.35 µs: a
 * large share of a call's pipeline overhead. Most handlers are written `(input) => …` and
 * never see it, so for those step 10 skips it.
 *
 * A handler gets the signal when it declares a second parameter, in any form. That is
 * not what `handler.length` says: it stops counting at the first default or rest
 * parameter, so `(input, signal = undefined) => …` and `(input, ...rest) => …` report 1.
 * So the answer is "no signal" only when the source proves it: a parameter list of at most
 * one plain parameter (an identifier, or a destructuring pattern without defaults).
 * Anything the scan cannot read — native or bound functions, proxies, quotes or comments
 * in the parameter list, unicode identifiers — gets a signal: a wrong "yes" costs 0.35 µs,
 * a wrong "no" breaks the handler's contract. (Reading `arguments[1]` beside a declared
 * `input` is not declaring a parameter: such a handler gets no signal, as before; a
 * parameterless `function () {…}` wrapper that forwards `arguments` still gets one.)
 */

const ONE_IDENTIFIER_ARROW = /^(?:async\s+)?[A-Za-z_$][\w$]*\s*=>/;
/** What may stand before the `(` of the parameter list: `async`, `function`, `*`, a name. */
const HEAD = /^(?:async\b\s*)?(?:function\b\s*)?(?:\*\s*)?(?:[A-Za-z_$][\w$]*\s*)?$/;
/** Inside the parameter list: a default (`=`), a rest (`.`), a string or a comment. */
const UNREADABLE_PARAM_CHAR = /[=.'"`/]/;

/**
 * The index of the `)` that closes the parameter list opened at `open`, when that list holds
 * at most one plain parameter; -1 when it holds more, or when unsure.
 */
const closeOfPlainList = (src: string, open: number): number => {
  let depth = 0;
  for (let i = open + 1; i < src.length; i++) {
    const c = src[i];
    if (UNREADABLE_PARAM_CHAR.test(c)) return -1;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === ")") {
      if (depth === 0) return i;
      depth--;
    } else if (c === "," && depth === 0) return -1;
  }
  return -1;
};

export const handlerReadsSignal = (handler: (...args: never[]) => unknown): boolean => {
  if (handler.length > 1) return true;
  let src: string;
  try {
    src = Function.prototype.toString.call(handler);
  } catch {
    return true;
  }
  if (src.includes("[native code]")) return true;
  if (ONE_IDENTIFIER_ARROW.test(src)) return false;
  const open = src.indexOf("(");
  if (open < 0 || !HEAD.test(src.slice(0, open))) return true;
  const close = closeOfPlainList(src, open);
  if (close < 0) return true;
  // `function () { return inner.apply(this, arguments); }` forwards whatever it is given:
  // a non-arrow function without parameters keeps getting the signal, as it always did.
  return handler.length === 0 && !/^\s*=>/.test(src.slice(close + 1));
};

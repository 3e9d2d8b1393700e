/**
 * Rewrites module specifier literals in JavaScript text — the loader's way to redirect an
 * import before Bun resolves it (Bun's runtime plugins are not consulted for bare or
 * extensionless relative specifiers, so resolving hooks cannot do this).
 *
 * Only string literals in specifier positions are touched: `from "…"`, `import "…"`,
 * `import("…")`, `require("…")`, `export … from "…"`.
 */

// The lookbehind keeps member calls out: `Array.from("x")`, `loader.require("x")`.
const SPECIFIER_SITE = /(?<![.$\w])(from\s*|import\s*\(?\s*|require\s*\(\s*)(["'])([^"'\n]+)\2/g;

/** Every specifier literal in `code`, in order. */
export const specifiersIn = (code: string): string[] => [...code.matchAll(SPECIFIER_SITE)].map((match) => match[3]);

/** `replace` returns the new specifier, or undefined to keep the site as written. */
export const rewriteSpecifiers = (code: string, replace: (specifier: string) => string | undefined): string =>
  code.replace(SPECIFIER_SITE, (site, lead: string, quote: string, specifier: string) => {
    const next = replace(specifier);
    return next === undefined ? site : `${lead}${quote}${next}${quote}`;
  });

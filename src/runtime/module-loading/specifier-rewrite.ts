/**
 * The module specifiers a text names as literals, and rewriting them — the loader's way to
 * redirect an import before Bun resolves it (Bun's runtime plugins are not consulted for
 * bare or extensionless relative specifiers, so resolving hooks cannot do this).
 *
 * Both read the one scanner (specifier-sites.ts) and take only the literal sites that are
 * not member calls: `from "…"`, `import "…"`, `import("…")`, `require("…")`,
 * `export … from "…"` — never `Array.from("…")` or `loader.require("…")`.
 */
import { specifierSites, type SiteKind, type SpecifierSite } from "./specifier-sites";

type LiteralSite = SpecifierSite & { specifier: string; end: number };

const literalSites = (code: string): LiteralSite[] =>
  specifierSites(code).filter((site): site is LiteralSite => !site.member && site.specifier !== undefined && site.end !== undefined);

/** Every specifier literal in `code`, in order. */
export const specifiersIn = (code: string): string[] => literalSites(code).map((site) => site.specifier);

/** Whether `code` calls `import(…)` (a dynamic import, literal or computed). */
export const hasDynamicImport = (code: string): boolean => specifierSites(code).some((site) => site.kind === "import" && !site.member);

/**
 * `replace` returns the new specifier, or undefined to keep the site as written; the quote is
 * kept. It is told the site's kind (a `require` resolves with the `require` condition).
 */
export function rewriteSpecifiers(code: string, replace: (specifier: string, kind: SiteKind) => string | undefined): string {
  let out = "";
  let last = 0;
  for (const site of literalSites(code)) {
    const next = replace(site.specifier, site.kind);
    if (next === undefined) continue;
    const quote = code[site.offset];
    // A replacement the old quotes cannot hold as written (a path with a quote) is spelled as JSON.
    const literal = next.includes(quote) || /[\\\n\r$]/.test(next) ? JSON.stringify(next) : `${quote}${next}${quote}`;
    out += `${code.slice(last, site.offset)}${literal}`;
    last = site.end;
  }
  return last === 0 ? code : out + code.slice(last);
}

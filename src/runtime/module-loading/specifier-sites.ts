/**
 * The one scanner for the places a JavaScript text names a module: `import … from "x"`,
 * `export … from "x"`, `import "x"`, `import("x")`, `require("x")` (member calls such as
 * `import.meta.require(…)` included, and marked), with the specifier when it is a literal and
 * undefined when it is computed — plus `require` used as a value (`const r = require`), which
 * an in-process module could call with anything.
 *
 * Everyone who reads specifiers reads them here: the strict checks (every site), the
 * `dependencies` check and the legacy-specifier rewrite (specifier-rewrite.ts: literal
 * sites that are not member calls — `Array.from("x")`, `loader.require("x")` name no module).
 */

export type SiteKind = "static" | "import" | "require" | "require-value";

export interface SpecifierSite {
  kind: SiteKind;
  /** The literal specifier, escapes decoded; undefined when computed. */
  specifier?: string;
  /** A literal's opening quote; a computed call's or a `require` value's first character. */
  offset: number;
  /** Just past a literal's closing quote (where a rewrite of the literal ends). */
  end?: number;
  /** A call on an object (`x.require("y")`, `import.meta.require("y")`), not the bare name. */
  member: boolean;
}

// One pattern per site kind, so each keeps its own look-behind: `Array.from("x")` is not an
// import, but `import.meta.require("x")` is a require.
// `d`: group indices, for the literal's exact place.
const STATIC = /(?<![.$\w])(?:from|import)\s*(["'])((?:\\.|(?!\1)[^\\\n])*)\1/dg;
const CALL = /(?<![$\w])(require|import)\s*\(\s*(?:(["'`])((?:\\.|(?!\2)[^\\\n])*)\2\s*(?=[,)]))?/dg;
const REQUIRE_VALUE = /(?<![$\w])require(?![$\w])(?!\s*\()/g;

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0" };

/** A string literal's value; undefined when it holds something we do not decode (refused as computed). */
export function decodeLiteral(body: string, quote: string): string | undefined {
  if (quote === "`" && body.includes("${")) return undefined;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = body[i + 1];
    const unicode = /^u\{([0-9a-fA-F]{1,6})\}|^u([0-9a-fA-F]{4})|^x([0-9a-fA-F]{2})/.exec(body.slice(i + 1));
    if (unicode) {
      out += String.fromCodePoint(parseInt(unicode[1] ?? unicode[2] ?? unicode[3], 16));
      i += unicode[0].length;
    } else if (next !== undefined && Object.hasOwn(SIMPLE_ESCAPES, next)) {
      out += SIMPLE_ESCAPES[next];
      i++;
    } else if (next !== undefined && !/[0-9xu]/.test(next)) {
      out += next;
      i++;
    } else return undefined;
  }
  return out;
}

/** Bun's transpiler gives an ES module that calls `require` this line; it is Bun's, not the author's. */
const BUN_REQUIRE_PRELUDE = /var \{require\}\s*=\s*import\.meta;/g;

/** Sites in source order; a literal's offset is its opening quote, a computed one's the call. */
export function specifierSites(text: string): SpecifierSite[] {
  const code = text.replace(BUN_REQUIRE_PRELUDE, (prelude) => " ".repeat(prelude.length));
  const sites: SpecifierSite[] = [];
  for (const m of code.matchAll(STATIC)) {
    const [open, close] = [m.indices![1][0], m.indices![2][1] + 1];
    sites.push({ kind: "static", specifier: decodeLiteral(m[2], m[1]), offset: open, end: close, member: false });
  }
  for (const m of code.matchAll(CALL)) {
    const kind = m[1] === "require" ? "require" : "import";
    const member = code[m.index - 1] === ".";
    if (m[2] === undefined) sites.push({ kind, offset: m.index, member });
    else sites.push({ kind, specifier: decodeLiteral(m[3], m[2]), offset: m.indices![2][0], end: m.indices![3][1] + 1, member });
  }
  for (const m of code.matchAll(REQUIRE_VALUE)) sites.push({ kind: "require-value", offset: m.index, member: code[m.index - 1] === "." });
  return sites.sort((a, b) => a.offset - b.offset);
}

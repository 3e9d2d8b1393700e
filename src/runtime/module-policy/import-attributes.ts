/**
 * Import attributes under strict (spec §10, docs/modules.md "Strict policy"). An attribute
 * decides how Bun loads a file, whatever its name: `import x from "./data.json" with { type:
 * "js" }` runs a `.json` file as code — a file the checks skipped as data — `type: "ts"` too,
 * and `type: "sqlite"` opens (or creates) a database. The checks judge a file by its
 * extension, so under strict the extension must be what loads it: the one attribute accepted
 * is `type: "json"` (`with` or the older `assert`) on a literal `.json` specifier — the file is
 * data either way. Every other attribute — on `import`, on `export … from`, or options as the
 * second argument of `import()`, computed or not — is refused.
 *
 * Read on the text Bun runs (escapes decoded). A static clause is looked for twice, as written
 * and with comments blanked, so neither a comment between the words nor a comment-like string
 * hides one; `import(` is read on code only (its argument list is walked, and a comment is not
 * a call). Strings that merely spell an import are refused too: like the lint, this reads text.
 */
import { decodeLiteral } from "../module-loading/specifier-sites";
import { blankComments } from "./comment-blanking";

export interface AttributeUse {
  /** Offset in the decoded text of the `import`/`from` keyword. */
  offset: number;
  /** What the refusal says the module does. */
  message: string;
}

const QUOTED = String.raw`(["'])((?:\\.|(?!\1)[^\\\n])*)\1`;
/** `import "x" with {…}`, `import x from "x" assert {…}`, `export * from "x" with {…}`. */
const STATIC_CLAUSE = new RegExp(String.raw`(?<![.$\w])(?:from|import)\s*${QUOTED}\s*(with|assert)\s*\{([^}]*)\}?`, "g");
/** `import(` — its argument list is walked by hand (argumentsOf). */
const DYNAMIC_CALL = /(?<![.$\w])import\s*\(/g;
/** The only accepted attribute list: `type: "json"` (keys quoted or not, a trailing comma). */
const JSON_ONLY = /^\s*(?:type|"type"|'type')\s*:\s*(?:"json"|'json')\s*,?\s*$/;
/** The only accepted options of `import()`: `{ with: { type: "json" } }` (or `assert:`). */
const JSON_OPTIONS = /^\{\s*(?:with|assert|"with"|"assert"|'with'|'assert')\s*:\s*\{([^{}]*)\}\s*,?\s*\}$/;

const isJsonSpecifier = (specifier: string | undefined): boolean => specifier !== undefined && /\.json$/i.test(specifier);
const shown = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
};
const why = `under strict a file loads by its extension: the only attribute accepted is type: "json" on a .json file`;

/** Every refused attribute use in `decoded` (a file's text, escapes decoded), in source order. */
export function refusedAttributes(decoded: string): AttributeUse[] {
  const code = blankComments(decoded);
  const found = new Map<number, AttributeUse>();
  for (const use of [...staticUses(decoded), ...staticUses(code), ...dynamicUses(code)]) if (!found.has(use.offset)) found.set(use.offset, use);
  return [...found.values()].sort((a, b) => a.offset - b.offset);
}

function staticUses(text: string): AttributeUse[] {
  const uses: AttributeUse[] = [];
  for (const m of text.matchAll(STATIC_CLAUSE)) {
    const specifier = decodeLiteral(m[2], m[1]);
    if (JSON_ONLY.test(m[4]) && isJsonSpecifier(specifier)) continue;
    uses.push({ offset: m.index, message: `loads '${specifier ?? m[2]}' ${m[3]} { ${shown(m[4])} } (${why})` });
  }
  return uses;
}

function dynamicUses(text: string): AttributeUse[] {
  const uses: AttributeUse[] = [];
  for (const m of text.matchAll(DYNAMIC_CALL)) {
    const args = argumentsOf(text, m.index + m[0].length);
    if (args.length < 2) continue;
    const literal = new RegExp(`^${QUOTED}$`).exec(args[0]);
    const specifier = literal ? decodeLiteral(literal[2], literal[1]) : undefined;
    const options = JSON_OPTIONS.exec(args[1]);
    if (args.length === 2 && options && JSON_ONLY.test(options[1]) && isJsonSpecifier(specifier)) continue;
    uses.push({ offset: m.index, message: `passes import() options (${shown(args.slice(1).join(", "))}) for '${specifier ?? shown(args[0])}' (${why})` });
  }
  return uses;
}

/** How far an argument list is read; a longer one counts as holding options (refused). */
const MAX_ARGUMENTS_LENGTH = 8192;
const UNREAD = "…";

/**
 * The top-level arguments of the call whose `(` ends just before `start`, trimmed, an empty
 * trailing one dropped (`import("x",)`). Strings, templates and nested brackets are skipped
 * whole. The walk ends at a `;` outside brackets (no argument list holds one) or after
 * MAX_ARGUMENTS_LENGTH characters — a list not closed by then counts as two arguments, so a
 * clause is never lost to the scan and no file is read once per `import(` to its end.
 */
function argumentsOf(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let from = start;
  let i = start;
  const stop = Math.min(text.length, start + MAX_ARGUMENTS_LENGTH);
  for (; i < stop; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === "`") {
      for (i++; i < stop && text[i] !== ch; i++) if (text[i] === "\\") i++;
    } else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if ((ch === ")" || ch === "]" || ch === "}") && depth > 0) depth--;
    else if (ch === ")") break;
    else if (ch === ";" && depth === 0) return [text.slice(from, i).trim(), UNREAD];
    else if (ch === "," && depth === 0) {
      args.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  if (i >= stop) return [text.slice(from, i).trim(), UNREAD];
  const last = text.slice(from, i).trim();
  if (last !== "" || args.length === 0) args.push(last);
  return args;
}

/**
 * `luma explain CODE`: the catalog entry of a diagnostic code (E0201, E0601,
 * TOOL_TIMEOUT…) — title, explanation, example. An unknown code is a usage error that
 * names the closest known one. The catalog is imported only here and by the tests: no
 * other command pays for its text.
 */
import { closestName } from "../diagnostics/did-you-mean";
import { allCatalogEntries, catalogEntry, type CatalogEntry } from "../diagnostics/catalog";
import { UsageError } from "./usage-error";
import { STD_SOURCE } from "../language/std-tools";

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => (line === "" ? "" : `    ${line}`))
    .join("\n");

/** Prose wrapped at `width` columns, at spaces (a longer word stays whole). */
function wrap(text: string, width = 88): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

export function formatEntry(e: CatalogEntry): string {
  const parts = [`${e.code}: ${e.title}`, "", wrap(e.explanation)];
  if (e.example) parts.push("", "Example:", indent(e.example));
  return parts.join("\n");
}

/**
 * The known code closest to an unknown one: for `E` and a number, always the code
 * numerically nearest (`E9999` → the last one; ties go to the lower); else a slip of a name
 * (`TOOL_TIMOUT`); a word like no code gets no guess.
 */
function closestCode(wrong: string, codes: readonly string[]): string | undefined {
  const number = /^E(\d+)$/.exec(wrong);
  if (number) {
    let best: string | undefined;
    for (const c of codes) {
      const n = /^E(\d+)$/.exec(c);
      if (n && (best === undefined || Math.abs(+n[1] - +number[1]) < Math.abs(+best.slice(1) - +number[1]))) best = c;
    }
    return best;
  }
  return closestName(wrong, codes);
}

/**
 * `luma explain std`: the contracts of luma:std as the checker reads them (the embedded
 * source itself, so the page and the truth cannot drift), and where its reach is set.
 */
function stdContractsText(): string {
  return [
    "luma:std — the standard tool set (docs/language/std-tools.md)",
    "",
    'Confinement, in luma.config.json: "std": { "files_root": "…", "http_hosts": ["host", "host:port"],',
    '"http_headers_env": { "host": { "Header-Name": "ENV_VAR" } } }. A refusal is TOOL_PERMISSION_DENIED naming the key.',
    "",
    STD_SOURCE.trimEnd(),
  ].join("\n");
}

export function explainText(code: string): string {
  if (code.trim().toLowerCase() === "std" || code.trim() === "luma:std") return stdContractsText();
  const entry = catalogEntry(code.trim());
  if (entry) return formatEntry(entry);
  const closest = closestCode(code.trim().toUpperCase(), allCatalogEntries().map((e) => e.code));
  throw new UsageError(`unknown diagnostic code '${code}'${closest ? ` (did you mean \`${closest}\`?)` : ""}`);
}

/**
 * E10xx: `import` between files (docs/language/imports.md). Reported while a program's
 * files are loaded and linked into one (`src/load/import-graph.ts`, `src/check/imports/`),
 * before the checker's own rules run: each names the importing file and the file the name
 * comes from, at the import line (or the use) in the file it belongs to. All are errors
 * that reject the program (exit code 2).
 *
 * Like the checker's entries, each words its diagnostic (`text`), so the code and the
 * message are one record; `check/imports/import-messages.ts` turns them into builders.
 */
import type { CatalogEntry } from "./catalog-entry";

export const IMPORT_DIAGNOSTICS = {
  importPath: {
    code: "E1001",
    title: "Import path not relative, or not a .luma file",
    text: (path: string) => `Import path "${path}" must be relative to the importing file (start with ./ or ../) and end in .luma.`,
    explanation:
      "An import names another file of the program by its path relative to the importing file, with its extension: `\"./orders.luma\"`, `\"../shared/refunds.luma\"`. A bare name, an absolute path or a path without `.luma` is refused, so the same program loads the same files wherever it is started from.",
    example: 'import { Order } from "orders"',
  },
  missingFile: {
    code: "E1002",
    title: "Imported file not found",
    text: (path: string, importer: string, resolved: string, reason: string) =>
      `Cannot read "${path}" imported by ${importer}: ${reason} (${resolved}).`,
    explanation:
      "The file an import names does not exist or cannot be read. The path is relative to the importing file, not to the directory the command runs in.",
    example: 'import { Order } from "./missing.luma"',
  },
  unknownName: {
    code: "E1003",
    title: "Imported name not declared in that file",
    text: (name: string, file: string, importer: string) => `'${name}' is not declared in ${file} (imported by ${importer}).`,
    hints: {
      didYouMean: (name: string) => `did you mean '${name}'?`,
      noReexport: (from: string) => `that file imports it from ${from}: a file does not re-export what it imports, so import it from there`,
    },
    explanation:
      "Every name of an import list must be a top-level declaration (schema, tool, model, agent, datasource, query, command or fn) of the file it imports from. A file does not re-export what it imports itself: import such a name from the file that declares it.",
    example: 'import { Ordr } from "./orders.luma"   // orders.luma declares Order',
  },
  importCycle: {
    code: "E1004",
    title: "Import cycle",
    text: (cycle: string) => `Import cycle: ${cycle}.`,
    explanation:
      "A file imports, directly or through other files, the file that imports it. Files form a tree (or a graph without cycles): move what both need into a third file that both import.",
    example: '// a.luma\nimport { B } from "./b.luma"\n// b.luma\nimport { A } from "./a.luma"',
  },
  nameClash: {
    code: "E1005",
    title: "Imported name clashes with another name of the file",
    text: (name: string, from: string, importer: string, other: string) =>
      `'${name}' is imported from ${from}, but ${importer} ${other}.`,
    hints: {
      rename: "rename it in this file with `as`: import { X as OtherName } from \"…\"",
    },
    explanation:
      "A name an import brings into a file must be new there: not declared by the file itself, and not brought in by another import (or twice by one list). `as` gives an imported declaration another name in the importing file.",
    example: 'schema Order { id: string }\nimport { Order } from "./orders.luma"',
  },
  declaredTwice: {
    code: "E1006",
    title: "Two files of a program declare the same name",
    text: (name: string, first: string, second: string) =>
      `'${name}' is declared in ${first} and again in ${second}: the files of one program share one set of declaration names.`,
    explanation:
      "When a program runs, its files' declarations are one program: a tool's name is what models see and what its handler is looked up by, a schema's name is what traces and errors say. So two files that are part of one program (the file run and every file it imports, directly or not) may not declare the same name, even where neither imports the other's. `as` renames a declaration in one importing file only; it does not make a second declaration of the name possible. Rename one of them.",
    example: '// main.luma declares schema Order and imports from lib.luma, which declares schema Order too',
  },
  notImported: {
    code: "E1007",
    title: "Name of another file used without importing it",
    text: (name: string, file: string, user: string) => `'${name}' is declared in ${file}, which ${user} does not import it from.`,
    hints: {
      add: (line: string) => `add: ${line}`,
    },
    explanation:
      "A file sees its own declarations and the names it imports — nothing else, even where another file of the program declares the name. Add the name to an import from the file that declares it.",
    example: '// main.luma\nimport { lookup_order } from "./orders.luma"\nx: Order = tool lookup_order({ id: "1" })   // Order is not imported',
  },
} as const;

/** The E10xx codes, literal: part of the catalog's `DiagnosticCode`. */
export type ImportCode = (typeof IMPORT_DIAGNOSTICS)[keyof typeof IMPORT_DIAGNOSTICS]["code"];

/** The E10xx entries by code, for `luma explain` and the diagnostics page. */
export const importCodes: CatalogEntry<ImportCode>[] = Object.values(IMPORT_DIAGNOSTICS).sort((a, b) => a.code.localeCompare(b.code));

/**
 * The builders the import linker reports with, derived from the catalog's E10xx entries
 * (`diagnostics/catalog/import-codes.ts`) as `check/messages.ts` derives the checker's:
 * `importMessages.unknownName(…)` is the entry's text, `importMessages.code.unknownName` its
 * code and `importMessages.hints` its hints — no wording or code is written here.
 */
import { IMPORT_DIAGNOSTICS } from "../../diagnostics/catalog/import-codes";

const D = IMPORT_DIAGNOSTICS;

export const importMessages = {
  importPath: D.importPath.text,
  missingFile: D.missingFile.text,
  unknownName: D.unknownName.text,
  importCycle: D.importCycle.text,
  nameClash: D.nameClash.text,
  declaredTwice: D.declaredTwice.text,
  notImported: D.notImported.text,
  code: {
    importPath: D.importPath.code,
    missingFile: D.missingFile.code,
    unknownName: D.unknownName.code,
    importCycle: D.importCycle.code,
    nameClash: D.nameClash.code,
    declaredTwice: D.declaredTwice.code,
    notImported: D.notImported.code,
  },
  hints: { ...D.unknownName.hints, ...D.nameClash.hints, ...D.notImported.hints },
};

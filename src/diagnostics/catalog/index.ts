/**
 * The one catalog of diagnostic codes (see catalog-entry.ts for the ranges). Built once on
 * first use: start-up of an ordinary run never touches it.
 */
import type { CatalogEntry } from "./catalog-entry";
import { parseCodes } from "./parse-codes";
import { checkCodes } from "./check-codes";
import { typeCodes } from "./type-codes";
import { configCodes } from "./config-codes";
import { moduleCodes } from "./module-codes";
import { startupCodes } from "./startup-codes";
import { runtimeCodes } from "./runtime-codes";
import { buildCodes } from "./build-codes";
import { mcpCodes } from "./mcp-codes";
import { journalCodes } from "./journal-codes";

export type { CatalogEntry } from "./catalog-entry";

let byCode: Map<string, CatalogEntry> | undefined;

export const allCatalogEntries = (): CatalogEntry[] => [
  ...parseCodes, ...checkCodes, ...typeCodes, ...configCodes, ...moduleCodes, ...startupCodes, ...buildCodes, ...mcpCodes, ...journalCodes, ...runtimeCodes,
];

export function catalogEntry(code: string): CatalogEntry | undefined {
  if (!byCode) {
    byCode = new Map();
    for (const e of allCatalogEntries()) byCode.set(e.code, e);
  }
  return byCode.get(code.toUpperCase());
}

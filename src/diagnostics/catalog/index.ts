/**
 * The one catalog of diagnostic codes (see catalog-entry.ts for the ranges). Built once on
 * first use: start-up of an ordinary run never touches it.
 *
 * `DiagnosticCode` is the union of every entry's code, read from the entries themselves
 * (each stage's list is `as const`): a `Diagnostic`'s `code`, a start-up error's
 * `catalogCode` and a check message's code are typed by it, so a code with no entry — a
 * typo, a retired number — does not compile.
 */
import type { CatalogEntry } from "./catalog-entry";
import { parseCodes, type ParseCode } from "./parse-codes";
import { checkCodes, type CheckCode } from "./check-codes";
import { typeCodes, type TypeCode } from "./type-codes";
import { configCodes, type ConfigCode } from "./config-codes";
import { moduleCodes, type ModuleCode } from "./module-codes";
import { startupCodes, type StartupCode } from "./startup-codes";
import { runtimeCodes, type RuntimeCode } from "./runtime-codes";
import { buildCodes, type BuildCode } from "./build-codes";
import { mcpCodes, type McpCode } from "./mcp-codes";
import { mcpClientCodes, type McpClientCode } from "./mcp-client-codes";
import { mcpServeCodes, type McpServeCode } from "./mcp-serve-codes";
import { journalCodes, type JournalCode } from "./journal-codes";
import { importCodes, type ImportCode } from "./import-codes";
import { stdCodes, type StdCode } from "./std-codes";
import { uiCodes, type UiCode } from "./ui-codes";
import { evalCodes, type EvalCode } from "./eval-codes";

export type { CatalogEntry, WordedEntry } from "./catalog-entry";

/** Every code the catalog explains: `"E0233" | "E0601" | "TOOL_TIMEOUT" | …`. */
export type DiagnosticCode =
  | ParseCode
  | CheckCode
  | TypeCode
  | ConfigCode
  | ModuleCode
  | StartupCode
  | BuildCode
  | McpCode
  | McpClientCode
  | McpServeCode
  | JournalCode
  | ImportCode
  | StdCode
  | UiCode
  | EvalCode
  | RuntimeCode;

let byCode: Map<string, CatalogEntry> | undefined;

export const allCatalogEntries = (): CatalogEntry[] => [
  ...parseCodes, ...checkCodes, ...typeCodes, ...configCodes, ...moduleCodes, ...startupCodes, ...buildCodes, ...mcpCodes, ...mcpClientCodes, ...mcpServeCodes, ...journalCodes, ...importCodes, ...stdCodes, ...uiCodes, ...evalCodes, ...runtimeCodes,
];

export function catalogEntry(code: string): CatalogEntry | undefined {
  if (!byCode) {
    byCode = new Map();
    for (const e of allCatalogEntries()) byCode.set(e.code, e);
  }
  return byCode.get(code.toUpperCase());
}

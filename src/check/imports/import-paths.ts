/**
 * What an import path may be and which file it names (docs/language/imports.md): relative
 * to the importing file, ending in `.luma`. Apart from the rest of `check/imports/` (and
 * the catalog it reports with), so the checked-program cache's key (`load/import-graph.ts`)
 * can read paths on every start without loading either.
 */
import { dirname, join } from "node:path";
import { STD_MODULE, STD_SOURCE } from "../../language/std-tools";

/** The file an import path names, as spans will name it. */
export const importedFileName = (importer: string, path: string): string => join(dirname(importer), path);

/** Whether an import path has the allowed shape: relative, ending in `.luma`. */
export const isImportPath = (path: string): boolean => /^\.\.?\//.test(path) && path.endsWith(".luma");

/** The text of a built-in module (`luma:std`), for the cache key: a binary whose contracts changed misses. */
export const builtinModuleText = (path: string): string | undefined => (path === STD_MODULE ? STD_SOURCE : undefined);

/**
 * The standard tool set `luma:std` (docs/language/std-tools.md): E1008–E1009 are the import
 * linker's (an import of a built-in module, `check/imports/`), E13xx the start-up's (the
 * `"std"` block of luma.config.json, `runtime/tools/std/`). A refusal at call time is no
 * code of this file: it is `TOOL_PERMISSION_DENIED`, naming the config key.
 */
import type { CatalogEntry } from "./catalog-entry";

export const STD_IMPORT_DIAGNOSTICS = {
  unknownModule: {
    code: "E1008",
    title: "Unknown built-in module",
    text: (path: string, known: string) => `"${path}" is not a built-in module: the modules are ${known}.`,
    explanation:
      "An import path that starts with `luma:` names a module built into Luma rather than a file. The only one is `luma:std`, the standard tool set (read_file, list_dir, write_file, http_get, http_send); a file of the program is imported by a relative path ending in `.luma`.",
    example: 'import { read_file } from "luma:files"',
  },
  unknownStdName: {
    code: "E1009",
    title: "Name not offered by luma:std",
    text: (name: string, offered: string) => `'${name}' is not part of luma:std, which offers ${offered}.`,
    hints: {
      didYouMean: (name: string) => `did you mean '${name}'?`,
    },
    explanation:
      "`luma:std` declares five tools — read_file, list_dir, write_file, http_get, http_send — and the schemas of their results (StdFile, StdDirEntry, StdDirListing, StdWritten, StdHttpResponse). `luma explain std` prints them. Any other name is not there: declare the tool yourself, with a handler in a tool module.",
    example: 'import { delete_file } from "luma:std"',
  },
} as const;

/** E13xx: the `"std"` block of luma.config.json, judged when a program that imports luma:std starts. */
export const STD_STARTUP_ENTRIES = [
  {
    code: "E1301",
    title: "std.files_root is not a directory",
    explanation:
      "`\"std\": { \"files_root\": \"…\" }` in luma.config.json is the directory every path of read_file, list_dir and write_file resolves under. It is relative to the config file's directory (a built agent's: the executable's directory when the config is embedded) and must exist and be a directory when a program using luma:std's file tools starts: nothing is created, so a typo cannot confine the tools to an empty place.",
    example: '{ "std": { "files_root": "./no-such-dir" } }',
  },
  {
    code: "E1302",
    title: "std.http_headers_env names a host not in std.http_hosts",
    explanation:
      "`std.http_headers_env` maps a host of `std.http_hosts` to the headers it is sent (header name → the environment variable holding the value, like a tool's `credential`). A host there that is not allowed could never be reached, so the entry is a mistake: add the host to `http_hosts`, or remove the entry.",
    example: '{ "std": { "http_hosts": ["api.example.com"], "http_headers_env": { "api.exmple.com": { "Authorization": "API_TOKEN" } } } }',
  },
] as const satisfies readonly CatalogEntry[];

type ImportEntry = (typeof STD_IMPORT_DIAGNOSTICS)[keyof typeof STD_IMPORT_DIAGNOSTICS];

/** The E1008–E1009 and E13xx codes, literal: part of the catalog's `DiagnosticCode`. */
export type StdCode = ImportEntry["code"] | (typeof STD_STARTUP_ENTRIES)[number]["code"];

export const stdCodes: CatalogEntry<StdCode>[] = [...Object.values(STD_IMPORT_DIAGNOSTICS), ...STD_STARTUP_ENTRIES];

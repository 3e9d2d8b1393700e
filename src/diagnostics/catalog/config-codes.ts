/**
 * E04xx: `luma.config.json` (src/config/). Each is a startup error (exit code 2) naming the
 * file and the key path; every problem of the file is listed at once.
 */
import type { CatalogEntry } from "./catalog-entry";

const CONFIG_ENTRIES = [
  {
    code: "E0401",
    title: "configuration does not match its schema",
    explanation:
      "A key of luma.config.json is unknown, holds a value of the wrong type, or a required key is missing. Every such problem is listed, each with its key path (`tool_modules[0].path`); an unknown key comes with the closest known key. The accepted keys are tool_modules, tool_contexts, tool_module_policy and idempotency_store (language reference §10–11).",
    example: '{ "tool_modles": ["./tools.ts"] }',
  },
  {
    code: "E0402",
    title: "configuration is not valid JSON",
    explanation:
      "luma.config.json must be strict JSON (RFC 8259): double-quoted keys, no trailing commas, no comments. The message names the line and column where it stops being JSON.",
    example: '{ "tool_modules": ["./tools.ts",] }',
  },
  {
    code: "E0403",
    title: "configuration file not found",
    explanation:
      "`--config PATH` names a file that does not exist (PATH is relative to the working directory). Without --config, a missing luma.config.json beside the program is fine: the defaults apply.",
    example: "luma app.luma --config ./no-such.json",
  },
  {
    code: "E0404",
    title: "configuration file cannot be read",
    explanation: "The configuration path is a directory, or the file cannot be read (permissions, I/O error).",
    example: "luma app.luma --config ./some-directory",
  },
  {
    code: "E0405",
    title: "dependency_root outside the project",
    explanation:
      "A tool module's `dependency_root` (where its packages are resolved from) is relative to the program's directory and must stay inside the project directory, the directory of luma.config.json.",
    example: '{ "tool_modules": [{ "path": "./tools.ts", "dependency_root": "../../elsewhere" }] }',
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type ConfigCode = (typeof CONFIG_ENTRIES)[number]["code"];

export const configCodes: CatalogEntry[] = [...CONFIG_ENTRIES];

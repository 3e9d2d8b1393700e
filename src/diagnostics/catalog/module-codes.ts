/**
 * E05xx: loading tool modules and the strict module policy (src/runtime/module-loading,
 * module-policy, registry/export-shape). Each is a startup error (exit code 2) naming the
 * module as you wrote it.
 */
import type { CatalogEntry } from "./catalog-entry";

const MODULE_ENTRIES = [
  {
    code: "E0501",
    title: "tool module could not be loaded",
    explanation:
      "The module file is missing, has an unsupported file type, has a syntax error (with its line:col), an import that does not resolve, or it threw while its top level ran. The message lists the supported file types (.ts, .mts, .js, .mjs, .cjs…).",
    example: "luma app.luma --tool-module ./tols.ts",
  },
  {
    code: "E0502",
    title: "tool module imports a package outside its allowlist",
    explanation:
      "The module's entry in luma.config.json lists `dependencies`; it (or a file it imports) imports a package not on that list. Add the package to `dependencies`, or drop the import.",
    example: '{ "tool_modules": [{ "path": "./tools.ts", "dependencies": ["zod"] }] }\n// tools.ts: import _ from "lodash";',
  },
  {
    code: "E0503",
    title: "tool module integrity mismatch",
    explanation:
      "The module's `integrity` in luma.config.json (`sha256-<base64>` of the file's bytes) does not match the file: it changed since the hash was taken. Nothing of it ran. Recompute the hash if the change is yours.",
    example: '{ "tool_modules": [{ "path": "./tools.ts", "integrity": "sha256-AAAA…" }] }',
  },
  {
    code: "E0504",
    title: "tool module loaded twice with different metadata",
    explanation:
      "The same file is listed twice (by --tool-module and the config, or under two spellings) with different version, integrity, dependencies or policy. Give both entries the same metadata, or list the file once.",
    example: '{ "tool_modules": [{ "path": "./tools.ts", "version": "1.0.0" }, { "path": "tools.ts", "version": "2.0.0" }] }',
  },
  {
    code: "E0505",
    title: "tool module refused by the strict policy",
    explanation:
      "Under `tool_module_policy.sandbox: \"strict\"`, the module does something its policy does not allow: reads the environment, opens the network, imports a builtin not allowlisted, builds code from strings, starts processes, leaves the project directory. Every violation is listed with its rule and line:col. Allow it in the policy, or change the module.",
    example: '{ "tool_module_policy": { "sandbox": "strict" }, "tool_modules": ["./tools.ts"] }\n// tools.ts: const key = process.env.API_KEY;',
  },
  {
    code: "E0506",
    title: "tool module exports the wrong shape",
    explanation:
      "A tool module exports an object of handler functions (directly, or as `lumaTools`, `tools` or `default`), and optionally `datasources`, an object of bridge functions. An export of another kind (a string, a class instance without functions) is reported with what it got.",
    example: 'export const calculate = "not a function";',
  },
  {
    code: "E0510",
    title: "the process sandbox cannot run on this host",
    explanation:
      "`tool_module_policy.sandbox: \"process\"` runs each tool module in its own child process confined by bubblewrap (Linux). The message names what is missing: not Linux, `bwrap` not installed, or bubblewrap unable to create its namespaces (user namespaces disabled). Luma never falls back to a weaker tier: install the mechanism (Debian/Ubuntu: `apt-get install bubblewrap`), or choose `\"strict\"` or `\"none\"` yourself.",
    example: '{ "tool_module_policy": { "sandbox": "process" }, "tool_modules": ["./tools.ts"] }',
  },
  {
    code: "E0511",
    title: "allow_paths names a path that does not exist",
    explanation:
      "Every path in `tool_module_policy.allow_paths` is shown to each tool module's sandbox at its own place; a path that does not exist cannot be. Paths are relative to the config file's directory. Create it, or remove the entry.",
    example: '{ "tool_module_policy": { "sandbox": "process", "allow_paths": ["./data", { "path": "./out", "write": true }] } }',
  },
  {
    code: "E0512",
    title: "tool module could not start in its sandbox",
    explanation:
      "Under `sandbox: \"process\"` the module's child process exited (or was killed) before it had loaded the module: the message says how. A module whose top level exits the process, or a host where the sandbox starts but the luma binary cannot run inside it, stops here.",
    example: '// tools.ts, under "sandbox": "process"\nprocess.kill(process.pid, "SIGKILL");',
  },
  {
    code: "E0513",
    title: "a process-sandboxed child could not set its limits or seccomp filter",
    explanation:
      "Under `sandbox: \"process\"` each module's child sets its own limits (open files, CPU time) and installs a seccomp filter on itself before it loads the module: no `ptrace`, no reading another process's memory, no typing into a terminal, and no `execve` unless `allow_spawn` is true. Where it cannot — an architecture Luma has no system call table for (x86-64 and arm64 have one), a libc that cannot be opened (`libc.so.6`), a kernel without seccomp filters — the module does not run, and start-up stops, naming what failed. Luma never runs the module without them; choose another tier explicitly if this host cannot have them.",
    example: '{ "tool_module_policy": { "sandbox": "process" } } // on an architecture other than x86-64 or arm64',
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type ModuleCode = (typeof MODULE_ENTRIES)[number]["code"];

export const moduleCodes: CatalogEntry[] = [...MODULE_ENTRIES];

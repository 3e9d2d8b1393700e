import type { CatalogEntry } from "./catalog-entry";

/** `luma build` (E07xx): the build-time refusals of its own; everything else a build refuses
 * (a rejected program, a module the strict policy refuses…) keeps the code `luma` gives it. */
const BUILD_ENTRIES = [
  {
    code: "E0701",
    title: "a bundled file imports a Bun macro",
    explanation:
      "A macro import (`with { type: \"macro\" }`) runs code while a file is transpiled or bundled. Luma never runs macros, so a tool module (or a file it imports) that uses one cannot be built into an agent.",
    example: 'import { stamp } from "./macro.ts" with { type: "macro" };',
  },
  {
    code: "E0702",
    title: "a tool module could not be bundled",
    explanation:
      "Bun's bundler could not bundle the module with the packages it imports (a syntax error, an import that does not resolve). The bundler's own message follows.",
    example: 'import { x } from "./missing.ts";',
  },
  {
    code: "E0703",
    title: "unknown build target",
    explanation: "`--target` names a Bun runtime as bun-OS-ARCH (bun-linux-x64, bun-linux-arm64, bun-darwin-arm64, bun-windows-x64…).",
    example: "luma build app.luma -o app --target linux",
  },
  {
    code: "E0704",
    title: "this luma cannot build",
    explanation: "The `luma` running has no embedded runtime bundle to build agents from: it is a development run, not the built `dist/luma`. Run `bun run build` and use `dist/luma build`.",
    example: "bun src/cli/main.ts build app.luma -o app",
  },
  {
    code: "E0705",
    title: "build output path refused",
    explanation: "`-o OUT` must name a new or replaceable executable file: not a directory, and not one of the build's own inputs (the program, a tool module, the config), which it would overwrite.",
    example: "luma build app.luma -o app.luma",
  },
  {
    code: "E0706",
    title: "the executable could not be written",
    explanation:
      "Compiling the agent failed: the output could not be written, or the runtime for another platform's `--target` could not be fetched (building for the host platform needs no network).",
    example: "luma build app.luma -o /read-only/app",
  },
  {
    code: "E0707",
    title: "a run-time --config changes what was fixed at build time",
    explanation:
      "A built agent may take another `luma.config.json` at run time (stores, contexts, datasources), but its `tool_modules` and `tool_module_policy` were judged and embedded at build time; to change them, build again.",
    example: "./agent --config other-modules.json",
  },
  {
    code: "E0708",
    title: "a built agent's payload does not match its manifest",
    explanation:
      "A built agent checks, before it runs anything, that its embedded payload (program, config, bundled tool modules) is the one `luma build` wrote: its sha256, and each module's text against the manifest's `bundled_sha256`. A mismatch means the file was changed after the build; it refuses to run. This catches an edit of the file, not an attacker who also rewrites the digests: protect the file itself (permissions, signing).",
    example: "./agent   (after editing the embedded module text in the file)",
  },
  {
    code: "E0709",
    title: "a literal URL with a password cannot be built into an agent",
    explanation:
      "Everything in the config and the program is embedded in a built agent, so a store, journal, datasource or MCP server URL written with a password would sit in its bytes. Put the URL in an environment variable and name it with `url_env` (for an MCP server, pass credentials through `headers_env`); it is then read at run time.",
    example: '{ "idempotency_store": { "backend": "postgres", "url": "postgres://app:secret@db/app" } }',
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type BuildCode = (typeof BUILD_ENTRIES)[number]["code"];

export const buildCodes: CatalogEntry[] = [...BUILD_ENTRIES];

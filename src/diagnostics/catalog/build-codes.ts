import type { CatalogEntry } from "./catalog-entry";

/** `luma build` (E07xx): the build-time refusals of its own; everything else a build refuses
 * (a rejected program, a module the strict policy refuses…) keeps the code `luma` gives it. */
export const buildCodes: CatalogEntry[] = [
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
];

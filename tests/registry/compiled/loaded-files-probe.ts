/**
 * Run in a fresh process by lazy-loaders.test.ts: builds a registry (no module, or the one
 * CommonJS module named on the command line, optionally under a strict policy) and prints
 * which source files of src/runtime the process has loaded (paths below src/runtime/).
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { loadToolRegistry } from "../../../src/runtime/tools/registry";
import { programDeclaring } from "../program-fixture";

const [module, strict] = process.argv.slice(2);
const dir = join(import.meta.dir, "../fixtures");
await loadToolRegistry({
  program: programDeclaring(["calculate"], [], join(dir, "program.luma")),
  config: {
    config: { tool_modules: [], tool_contexts: {}, ...(strict ? { tool_module_policy: { sandbox: "strict" as const } } : {}) },
    projectDir: dir,
  },
  cliModules: module ? [module] : [],
  cwd: dir,
});
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes("/src/runtime/"));
console.log(JSON.stringify(loaded.map((path) => path.slice(path.indexOf("/src/runtime/") + "/src/runtime/".length)).sort()));

import { describe, expect, test } from "bun:test";
import { join } from "node:path";

/** The files of src/runtime a fresh process has loaded after building its registry. */
function loadedFiles(...args: string[]): string[] {
  const probe = Bun.spawnSync([process.execPath, join(import.meta.dir, "compiled/loaded-files-probe.ts"), ...args]);
  expect(probe.stderr.toString()).toBe("");
  return JSON.parse(probe.stdout.toString());
}

const LOADERS = ["tools/registry/load-tool-modules.ts", "tools/registry/load-tool-module.ts", "module-loading/commonjs-wrapper.ts", "module-loading/prepare-source.ts"];
const STRICT_LOADERS = ["module-policy/load-strict-module.ts", "module-policy/strict-context.ts", "module-policy/strict-commonjs-loader.ts"];

describe("start-up: the module loaders load only when there is a module to load", () => {
  test("no --tool-module and no tool_modules: no loader, no strict policy code is imported (regression)", () => {
    const files = loadedFiles();
    expect(files).toContain("tools/registry/load-tool-registry.ts");
    for (const loader of [...LOADERS, ...STRICT_LOADERS]) expect(files).not.toContain(loader);
  });

  test("one module: the loaders load, the strict loader still does not (no strict policy)", () => {
    const files = loadedFiles("shapes/module-object.cjs");
    for (const loader of LOADERS) expect(files).toContain(loader);
    for (const loader of STRICT_LOADERS) expect(files).not.toContain(loader);
  });

  test("one module under sandbox: strict: the strict loader loads too", () => {
    const files = loadedFiles("shapes/module-object.cjs", "strict");
    for (const loader of [...LOADERS, ...STRICT_LOADERS]) expect(files).toContain(loader);
  });
});

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { LoadedConfig, LumaConfig } from "../../src/config/config-types";
import { loadToolModules } from "../../src/runtime/tools/registry/load-tool-modules";
import { BUILTIN_MODULE, buildRegistry, loadToolRegistry } from "../../src/runtime/tools/registry";
import { calculate as defaultCalculate, text_stats as defaultTextStats } from "../../src/tool-registry";
import { programDeclaring } from "./program-fixture";
import { startupFailure } from "./startup-error-helpers";

const FIXTURES = join(import.meta.dir, "fixtures");
const fixture = (path: string) => join(FIXTURES, path);
const noConfig = (projectDir = FIXTURES): LoadedConfig => ({ config: { tool_modules: [], tool_contexts: {} }, projectDir });

/** Loads modules by fixture path and builds the registry for a program declaring `tools`. */
async function registryFor(tools: string[], modulePaths: string[], datasources: string[] = []) {
  const modules = await loadToolModules(modulePaths.map((path) => ({ shownPath: path, absPath: fixture(path) })));
  return buildRegistry({ program: programDeclaring(tools, datasources), modules });
}

describe("§10 export shape, searched in order: lumaTools → tools → default → the module object", () => {
  const order: [file: string, winner: string][] = [
    ["shapes/lumaTools-first.ts", "lumaTools"],
    ["shapes/tools-second.ts", "tools"],
    ["shapes/default-third.ts", "default"],
    ["shapes/module-object.ts", "module"],
    ["shapes/module-object.cjs", "cjs module"],
  ];
  for (const [file, winner] of order) {
    test(`${file}: the handlers come from ${winner}`, async () => {
      const registry = await registryFor(["calculate"], [file]);
      expect(registry.handler("calculate")!({})).toEqual({ result: winner });
    });
  }

  test("exports with no matching tool declaration are ignored", async () => {
    const registry = await registryFor(["calculate"], ["shapes/module-object.ts"]);
    expect(registry.handler("not_declared")).toBeUndefined();
  });

  test("every value must be a function: a startup error naming the module and each bad export", async () => {
    const error = await startupFailure(() => registryFor(["calculate", "text_stats"], ["errors/non-function.ts"]));
    expect(error.message).toBe(
      [
        "Tool module 'errors/non-function.ts' export 'calculate' must be a function (got a number).",
        "Tool module 'errors/non-function.ts' export 'helper' must be a function (got a string).",
      ].join("\n"),
    );
  });

  test("a non-function inside lumaTools is named with its path", async () => {
    const error = await startupFailure(() => registryFor(["calculate"], ["errors/non-function-in-tools.cjs"]));
    expect(error.message).toBe("Tool module 'errors/non-function-in-tools.cjs' export 'lumaTools.calculate' must be a function (got an object).");
  });

  test("a shape export that is not an object of handlers is an error", async () => {
    const error = await startupFailure(() => registryFor(["calculate"], ["errors/default-is-function.mjs"]));
    expect(error.message).toBe("Tool module 'errors/default-is-function.mjs' export 'default' must be an object of tool handlers (got a function).");
  });

  test("the export named datasources is an object of bridges, collected as datasources", async () => {
    const registry = await registryFor(["lookup"], ["registry/datasources.mjs"], ["Warehouse"]);
    expect(registry.handler("lookup")!({})).toEqual({ found: true });
    expect(registry.handler("datasources")).toBeUndefined();
    expect(await registry.datasource("Warehouse")!("SELECT 1", [1])).toEqual([{ sql: "SELECT 1", params: [1] }]);
    expect(registry.moduleOf("Warehouse")).toBe(fixture("registry/datasources.mjs"));
  });
});

describe("§10 registry: defaults, replacement, conflicts, missing handlers", () => {
  test("declared defaults get the built-in handlers from src/tool-registry.ts", async () => {
    const registry = await registryFor(["calculate", "text_stats"], []);
    expect(registry.handler("calculate")).toBe(defaultCalculate);
    expect(registry.handler("text_stats")).toBe(defaultTextStats);
    expect(registry.moduleOf("calculate")).toBe(BUILTIN_MODULE);
  });

  test("a user module may replace a default", async () => {
    const registry = await registryFor(["calculate", "text_stats"], ["registry/replaces-default.ts"]);
    expect(registry.handler("calculate")!({})).toEqual({ result: "replaced" });
    expect(registry.handler("text_stats")).toBe(defaultTextStats);
    expect(registry.moduleOf("calculate")).toBe(fixture("registry/replaces-default.ts"));
  });

  test("two user modules exporting the same name, exact: Tool registry conflict: calculate.", async () => {
    const error = await startupFailure(() => registryFor(["calculate"], ["registry/conflict-a.ts", "registry/conflict-b.cjs"]));
    expect(error.message).toBe("Tool registry conflict: calculate.");
    expect(error.toLine()).toBe("Error: Tool registry conflict: calculate.");
  });

  test("two modules exporting the same undeclared name do not conflict (it is ignored)", async () => {
    const registry = await registryFor(["text_stats"], ["registry/conflict-a.ts", "registry/conflict-b.cjs"]);
    expect(registry.handler("calculate")).toBeUndefined();
  });

  test("a declared tool without a handler, exact: 'x' is not registered in the tool registry.", async () => {
    const error = await startupFailure(() => registryFor(["text_stats", "db_write"], []));
    expect(error.message).toBe("'db_write' is not registered in the tool registry.");
    expect(error.code).toBeUndefined();
    expect(error.toLine()).toBe("Error: 'db_write' is not registered in the tool registry.");
  });

  test("the calculate example: no default would mean the exact message for calculate", async () => {
    const registry = await registryFor(["calculate"], []);
    expect(registry.handler("calculate")).toBe(defaultCalculate);
    const error = await startupFailure(() => registryFor(["calculate", "translate"], ["shapes/module-object.ts"]));
    expect(error.message).toBe("'translate' is not registered in the tool registry.");
  });
});

describe("§10 loadToolRegistry: --tool-module relative to the cwd, config tool_modules relative to the program", () => {
  test("modules from both sources are loaded", async () => {
    const config: LoadedConfig = {
      config: { tool_modules: [{ path: "registry/datasources.mjs" }], tool_contexts: {} },
      projectDir: FIXTURES,
    };
    const cwd = join(FIXTURES, "shapes");
    const registry = await loadToolRegistry({
      program: programDeclaring(["calculate", "lookup"], ["Warehouse"], join(FIXTURES, "program.luma")),
      config,
      cliModules: ["./module-object.ts"],
      cwd,
    });
    expect(registry.handler("calculate")!({})).toEqual({ result: "module" });
    expect(registry.handler("lookup")!({})).toEqual({ found: true });
  });

  test("a relative program path is resolved against the cwd", async () => {
    const cwd = tmpdir();
    const registry = await loadToolRegistry({
      program: programDeclaring(["calculate"], [], relative(cwd, join(FIXTURES, "program.luma"))),
      config: { config: { tool_modules: ["shapes/tools-second.ts"].map((path) => ({ path })), tool_contexts: {} }, projectDir: FIXTURES },
      cliModules: [],
      cwd,
    });
    expect(registry.handler("calculate")!({})).toEqual({ result: "tools" });
  });

  test("a tool_module_policy block is enforced: a module strict refuses never runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-policy-"));
    writeFileSync(join(dir, "tools.cjs"), "globalThis.__lumaPolicyRan = true; exports.calculate = () => 1;");
    const config: LumaConfig = { tool_modules: [{ path: "tools.cjs" }], tool_contexts: {}, tool_module_policy: { sandbox: "strict" } };
    const error = await startupFailure(() =>
      loadToolRegistry({ program: programDeclaring(["calculate"], [], join(dir, "p.luma")), config: { config, projectDir: dir, path: join(dir, "luma.config.json") }, cliModules: [], cwd: dir }),
    );
    expect(error.message).toBe(`Tool module 'tools.cjs' was refused: 1:1 [allow_env] mentions 'globalThis' ("allow_env" is false)`);
    expect((globalThis as Record<string, unknown>).__lumaPolicyRan).toBeUndefined();
  });

  test("no modules and no policy: only the defaults", async () => {
    const registry = await loadToolRegistry({ program: programDeclaring(["text_stats"]), config: noConfig(), cliModules: [], cwd: FIXTURES });
    expect(registry.handler("text_stats")!({ text: "a b" })).toEqual({ characters: 3, words: 2 });
  });
});

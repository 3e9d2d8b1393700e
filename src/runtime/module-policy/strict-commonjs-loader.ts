/**
 * CommonJS under strict (spec §10): the module's wrapper is compiled inside the module's VM
 * context, and its `require` admits a specifier only through the strict decision table —
 * at call time, so `require("f" + "s")` or `require(name)` gets the verdict of the name it
 * computes to.
 *
 * What `require` hands back: "luma" from memory; an allowed builtin from the host (the
 * host's own object); a project or package CommonJS file run in the same context after its
 * own checks (a package is not handed to Bun's `require`, whose own requires nobody would
 * judge); a JSON file parsed in the context. An ES module cannot be `require`d here
 * (its loading is asynchronous in the VM); `require.cache` and `require.main` do not exist.
 */
import { createRequire } from "node:module";
import { extname } from "node:path";
import { readFileSync } from "node:fs";
import { runCommonJs } from "../module-loading/commonjs-wrapper";
import { lumaModuleExports } from "../module-loading/luma-virtual-module";
import { admit, notFound, refuse, type StrictScope } from "./strict-scope";
import { readCheckedFile } from "./strict-files";
import { dynamicImport } from "./strict-dynamic-import";

/** Runs `code` as the CommonJS module `file` in the scope's context; returns `module.exports`. */
export function runCommonJsInContext(scope: StrictScope, file: string, code: string): unknown {
  return runCommonJs(file, code, {
    modules: scope.commonJs,
    requireOf: (from) => strictRequire(scope, from),
    context: scope.realm.context,
    makeModule: scope.realm.makeModule,
    importDynamically: (specifier, from) => dynamicImport(scope, specifier, from),
  });
}

/** What an admitted specifier gives `require`. Shared with the ES module linker. */
export function requireTarget(scope: StrictScope, specifier: unknown, fromFile: string): unknown {
  const target = admit(scope, specifier, fromFile, "require");
  switch (target.kind) {
    case "luma":
      return lumaModuleExports;
    case "builtin":
      return createRequire(fromFile)(target.name.startsWith("bun") ? target.name : `node:${target.name}`);
    case "missing":
      throw notFound(target.specifier, fromFile);
    case "package":
    case "file":
      return requireProjectFile(scope, target.path);
  }
}

function requireProjectFile(scope: StrictScope, path: string): unknown {
  const cached = scope.commonJs.get(path);
  if (cached) return cached.exports;
  if (extname(path) === ".json") return scope.realm.parseJson(readFileSync(path, "utf8"));
  const prepared = readCheckedFile(scope, path);
  if (prepared.runAs !== "cjs") {
    throw refuse(scope, "file_type", `requires '${path}', an ES module (under strict, require() loads CommonJS and JSON files; use import)`);
  }
  return runCommonJsInContext(scope, path, prepared.code);
}

/** The controlled `require` of `from` (also `import.meta.require` of a TypeScript ES module). */
export function strictRequire(scope: StrictScope, from: string): NodeJS.Require {
  const require = scope.realm.wrapFunction((specifier: unknown) => requireTarget(scope, specifier, from), "require") as unknown as NodeJS.Require;
  const resolve = (specifier: unknown) => {
    const target = admit(scope, specifier, from, "require");
    if (target.kind === "missing") throw notFound(target.specifier, from);
    return target.kind === "file" || target.kind === "package" ? target.path : String(specifier);
  };
  require.resolve = scope.realm.wrapFunction(resolve, "resolve") as unknown as NodeJS.RequireResolve;
  return require;
}

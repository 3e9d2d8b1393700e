/**
 * `import()` inside a strict module's VM context (the context's dynamic-import hook). The
 * specifier is only known when it runs, so it is judged then, by the same table as a
 * literal; with a manifest `dependencies` list, dynamic import is refused outright (spec §10).
 * Without this hook the VM refuses every dynamic import — Luma installs it to say why.
 */
import { extname } from "node:path";
import { readFileSync } from "node:fs";
import { lumaModuleExports } from "../module-loading/luma-virtual-module";
import { admit, notFound, refuse, type StrictScope } from "./strict-scope";
import { readCheckedFile } from "./strict-files";
import { runCommonJsInContext } from "./strict-commonjs-loader";
import { loadEsmInContext } from "./strict-esm-loader";

const asNamespace = (exports: unknown): Record<string, unknown> =>
  exports !== null && typeof exports === "object" ? { ...(exports as object), default: exports } : { default: exports };

export async function dynamicImport(scope: StrictScope, specifier: unknown, fromFile: string): Promise<unknown> {
  if (scope.rules?.allow && !scope.packageCode.has(fromFile)) {
    throw refuse(scope, "dependencies", `uses dynamic import() of '${String(specifier)}' (forbidden when the manifest lists "dependencies")`);
  }
  const target = admit(scope, specifier, fromFile);
  switch (target.kind) {
    case "luma":
      return asNamespace(lumaModuleExports);
    case "builtin":
      return import(target.name.startsWith("bun") ? target.name : `node:${target.name}`);
    case "missing":
      throw notFound(target.specifier, fromFile);
    case "package":
    case "file": {
      if (extname(target.path) === ".json") return { default: scope.realm.parseJson(readFileSync(target.path, "utf8")) };
      const cached = scope.commonJs.get(target.path);
      if (cached) return asNamespace(cached.exports);
      const prepared = readCheckedFile(scope, target.path);
      return prepared.runAs === "cjs"
        ? asNamespace(runCommonJsInContext(scope, target.path, prepared.code))
        : loadEsmInContext(scope, target.path, prepared.code);
    }
  }
}

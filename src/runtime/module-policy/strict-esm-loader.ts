/**
 * ES-module syntax in a strict TypeScript module (spec §10: TypeScript runs in the VM
 * context, like CommonJS). The transpiled text becomes a `vm.SourceTextModule` of the
 * module's context; its linker admits every static import through the strict decision table:
 * "luma" and allowed builtins arrive as synthetic modules wrapping the host's exports;
 * project files and packages are checked and linked into the same context. `import.meta.require`
 * (what Bun makes of `require` in an ES module) is the controlled require.
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { notFound, admit, type StrictScope } from "./strict-scope";
import { readCheckedFile } from "./strict-files";
import { requireTarget, runCommonJsInContext, strictRequire } from "./strict-commonjs-loader";
import { dynamicImport } from "./strict-dynamic-import";

/** Loads, links and evaluates `file`; resolves with its namespace. */
export async function loadEsmInContext(scope: StrictScope, file: string, code: string): Promise<Record<string, unknown>> {
  const module = sourceModule(scope, file, code);
  if (module.status === "unlinked") await module.link((specifier, referrer) => link(scope, specifier, referrer.identifier));
  if (module.status === "linked") await module.evaluate();
  if (module.status === "errored") throw module.error;
  return module.namespace as Record<string, unknown>;
}

function sourceModule(scope: StrictScope, file: string, code: string): vm.Module {
  const cached = scope.esModules.get(file);
  if (cached) return cached;
  const module = new vm.SourceTextModule(code, {
    identifier: file,
    context: scope.realm.context,
    initializeImportMeta(meta) {
      const m = meta as unknown as Record<string, unknown>;
      m.url = pathToFileURL(file).href;
      m.path = file;
      // Bun's transpiler turns `require` in an ES module into `import.meta.require`: it is the
      // controlled require here, as in a CommonJS module.
      m.require = strictRequire(scope, file);
    },
    importModuleDynamically: ((specifier: string) => dynamicImport(scope, specifier, file)) as never,
  });
  scope.esModules.set(file, module);
  return module;
}

function synthetic(scope: StrictScope, id: string, exports: unknown): vm.Module {
  const names = exports !== null && typeof exports === "object" ? Object.keys(exports).filter((k) => k !== "default") : [];
  return new vm.SyntheticModule(
    [...names, "default"],
    function (this: vm.SyntheticModule) {
      for (const name of names) this.setExport(name, (exports as Record<string, unknown>)[name]);
      const ownDefault = (exports as { default?: unknown } | null)?.default;
      this.setExport("default", names.length > 0 && ownDefault !== undefined ? ownDefault : exports);
    },
    { identifier: id, context: scope.realm.context },
  );
}

function link(scope: StrictScope, specifier: string, fromFile: string): vm.Module {
  const target = admit(scope, specifier, fromFile);
  if (target.kind === "missing") throw notFound(target.specifier, fromFile);
  if (target.kind !== "file" && target.kind !== "package") return synthetic(scope, `${target.kind}:${specifier}`, requireTarget(scope, specifier, fromFile));
  const cached = scope.esModules.get(target.path);
  if (cached) return cached;
  if (extname(target.path) === ".json") {
    return synthetic(scope, target.path, scope.realm.parseJson(readFileSync(target.path, "utf8")));
  }
  const prepared = readCheckedFile(scope, target.path);
  if (prepared.runAs === "cjs") {
    const exports = scope.commonJs.get(target.path)?.exports ?? runCommonJsInContext(scope, target.path, prepared.code);
    return synthetic(scope, target.path, exports);
  }
  return sourceModule(scope, target.path, prepared.code);
}

/**
 * Running one CommonJS file: Node's wrapper `(exports, require, module, __filename,
 * __dirname)` compiled with `node:vm` and called with `this === module.exports` — the one
 * implementation both CommonJS loaders share. What differs between them is handed in:
 *
 * - the plain loader (commonjs-loader.ts) compiles in this process's context and gives a
 *   `require` built on Bun's own;
 * - the strict loader (module-policy/strict-commonjs-loader.ts) compiles inside the module's
 *   VM context, makes the `module` object there (so `module.constructor` is that realm's
 *   Object), gives the controlled `require` and an `import()` hook.
 */
import { dirname } from "node:path";
import vm from "node:vm";

export interface CommonJsModule {
  exports: unknown;
  id: string;
  filename: string;
  loaded: boolean;
}

export interface CommonJsHost {
  /** Modules run so far, by real path; registered before the body runs, so a cycle sees partial exports (as in Node). */
  modules: Map<string, { exports: unknown }>;
  /** The `require` handed to `file`'s wrapper. */
  requireOf: (file: string) => unknown;
  /** Strict: the VM context the wrapper is compiled in (this process's context when absent). */
  context?: vm.Context;
  /** Strict: makes the `module` object in that context's realm. */
  makeModule?: (file: string) => CommonJsModule;
  /** Strict: answers `import()` inside the module (without a hook the VM refuses every dynamic import). */
  importDynamically?: (specifier: string, file: string) => Promise<unknown>;
}

const WRAPPER_PARAMS = ["exports", "require", "module", "__filename", "__dirname"];

const plainModule = (file: string): CommonJsModule => ({ exports: {}, id: file, filename: file, loaded: false });

/** Runs `code` as the CommonJS module `file`; returns its `module.exports`. */
export function runCommonJs(file: string, code: string, host: CommonJsHost): unknown {
  const module = (host.makeModule ?? plainModule)(file);
  host.modules.set(file, module);
  const hook = host.importDynamically;
  const wrapper = vm.compileFunction(code, WRAPPER_PARAMS, {
    filename: file,
    ...(host.context ? { parsingContext: host.context } : {}),
    ...(hook ? { importModuleDynamically: ((specifier: string) => hook(specifier, file)) as never } : {}),
  }) as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, host.requireOf(file), module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}

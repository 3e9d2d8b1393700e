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

let lineShift: number | undefined;

/**
 * How many lines `vm.compileFunction` puts before the body in its stack frames (Bun wraps
 * the body after a line of its own and ignores `lineOffset`), measured once on a one-line
 * body, so that a handler's crash names its file's own line (issue #12.6) whatever the
 * engine does: `compiledLineShiftOf(file)` tells the stack reader what to subtract.
 */
function compiledLineShift(): number {
  if (lineShift !== undefined) return lineShift;
  const probe = vm.compileFunction("return new Error().stack", [], { filename: "/luma-line-probe.js" }) as () => string;
  const line = /luma-line-probe\.js:(\d+):/.exec(probe() ?? "")?.[1];
  lineShift = line === undefined ? 0 : Number(line) - 1;
  return lineShift;
}

/** Files run through the wrapper, with the line shift of their stack frames. */
const shifted = new Map<string, number>();

export const compiledLineShiftOf = (file: string): number => shifted.get(file) ?? 0;

const plainModule = (file: string): CommonJsModule => ({ exports: {}, id: file, filename: file, loaded: false });

/** Runs `code` as the CommonJS module `file`; returns its `module.exports`. */
export function runCommonJs(file: string, code: string, host: CommonJsHost): unknown {
  const module = (host.makeModule ?? plainModule)(file);
  host.modules.set(file, module);
  shifted.set(file, compiledLineShift());
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

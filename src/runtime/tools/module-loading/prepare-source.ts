/**
 * Turns a tool module's file text into the JavaScript that is actually run, and decides
 * whether that code runs as CommonJS (our loader) or ESM (Bun's loader).
 *
 * Every kind goes through `Bun.Transpiler` first: TypeScript must be transpiled anyway, and
 * for JavaScript the parse is a syntax check that, unlike the engine's, reports line:col.
 *
 * Macros are off (`macro: false`): `Bun.Transpiler` runs a `with { type: "macro" }` import
 * *while it transpiles*, so with them on, reading a module to check it would already run
 * code of its choosing — before integrity-checked text is judged by the strict policy, and
 * for modules no policy covers. A macro import is a load error instead (load-failure.ts).
 */
import type { ModuleKind } from "./module-kind";
import { rewriteLegacySpecifiers } from "./luma-virtual-module";

export interface PreparedSource {
  /** What runs. */
  code: string;
  /** The transpiler's output (comments gone): what static checks read. */
  transpiled: string;
  /** Who runs it: a TypeScript file written in CommonJS style runs in our CommonJS loader. */
  runAs: "cjs" | "esm";
}

/** `false` turns macros off; Bun's types only know the macro map. */
const NO_MACROS = { macro: false } as unknown as Pick<Bun.TranspilerOptions, "macro">;

let transpilers: { ts: Bun.Transpiler; js: Bun.Transpiler } | undefined;

/** Built on first use: nothing heavy at import time. */
const getTranspilers = () =>
  (transpilers ??= {
    ts: new Bun.Transpiler({ loader: "ts", target: "bun", ...NO_MACROS }),
    js: new Bun.Transpiler({ loader: "js", target: "bun", ...NO_MACROS }),
  });

/** Throws Bun's `BuildMessage` (with a position) when the text does not parse. */
export function prepareSource(kind: ModuleKind, source: string): PreparedSource {
  const { ts, js } = getTranspilers();
  switch (kind) {
    case "cjs":
      return { code: source, transpiled: js.transformSync(source), runAs: "cjs" };
    case "esm":
      return { code: rewriteLegacySpecifiers(source), transpiled: js.transformSync(source), runAs: "esm" };
    case "ts": {
      const code = ts.transformSync(source);
      return { code: rewriteLegacySpecifiers(code), transpiled: code, runAs: isCommonJsStyle(ts, code) ? "cjs" : "esm" };
    }
  }
}

const COMMONJS_EXPORTS = /\b(?:module\.exports|exports\.[A-Za-z_$])/;

/**
 * A TypeScript file written as CommonJS: it assigns `module.exports`/`exports.x` and has no
 * `import`/`export` statement nor `import.meta` (which only an ES module loader can run).
 */
function isCommonJsStyle(transpiler: Bun.Transpiler, code: string): boolean {
  if (!COMMONJS_EXPORTS.test(code) || code.includes("import.meta")) return false;
  const { exports, imports } = transpiler.scan(code);
  return exports.length === 0 && !imports.some((entry) => entry.kind === "import-statement");
}

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
  /**
   * TypeScript run as ESM by Bun's loader: the file's own text (legacy specifiers rewritten),
   * which Bun transpiles itself. `Bun.Transpiler` drops type-only lines and has no source
   * maps, so a stack through `code` would name the wrong lines; Bun's loader maps its frames
   * back to the file, and a handler's crash names its real line (issue #12.6).
   */
  typescript?: string;
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
      if (isCommonJsStyle(ts, code)) return { code: rewriteLegacySpecifiers(code), transpiled: code, runAs: "cjs" };
      return { code: rewriteLegacySpecifiers(code), transpiled: code, runAs: "esm", typescript: rewriteLegacySpecifiers(source) };
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

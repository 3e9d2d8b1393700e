/**
 * Loads ESM and TypeScript tool modules in-process with Bun's own module loader (spec §10).
 *
 * The text Bun runs is ours: TypeScript already transpiled by `Bun.Transpiler`, legacy
 * `./src/tool-registry` specifiers rewritten to "luma". A one-path `Bun.plugin` onLoad hands
 * that text to Bun for exactly this file, so relative imports, `import.meta` and top-level
 * await keep their normal meaning, and Bun's module cache makes a second load of the same
 * file the same module instance.
 */
import { installLumaModule } from "./luma-virtual-module";

const served = new Set<string>();

/** One `Bun.plugin` per module name, once per process (Bun's module cache does the rest). */
function serveOnce(name: string, setup: Bun.BunPlugin["setup"]): void {
  if (served.has(name)) return;
  served.add(name);
  Bun.plugin({ name: `luma-tool-module:${name}`, setup });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * Imports `file` with `code` as its source; resolves with the module namespace. TypeScript
 * comes as TypeScript (`loader: "ts"`) so that Bun's source map keeps the file's lines.
 */
export async function loadEsm(file: string, code: string, loader: "js" | "ts" = "js"): Promise<Record<string, unknown>> {
  installLumaModule();
  serveFile(file, code, loader);
  return (await import(file)) as Record<string, unknown>;
}

/**
 * A module name whose loading throws `message`: where Luma's resolution finds no file, the
 * import fails when Bun reaches it (a static import at link, `import()` when it runs), instead
 * of Bun's own resolver picking a file Luma did not judge.
 */
export function serveMissing(name: string, message: string): void {
  serveOnce(name, (build) => {
    build.module(name, () => {
      throw new Error(message);
    });
  });
}

/** Bun loads `code` whenever it loads `file` (the first text served for a file stays). */
export function serveFile(file: string, code: string, loader: "js" | "ts"): void {
  serveOnce(file, (build) => {
    build.onLoad({ filter: new RegExp(`^${escapeRegExp(file)}$`) }, () => ({ contents: code, loader }));
  });
}

/**
 * Imports `code` as the ES module `specifier`, a name no file has (a built agent's embedded
 * module): a `Bun.plugin` virtual module, since Bun resolves a path before any `onLoad` runs.
 */
export async function loadVirtualEsm(specifier: string, code: string): Promise<Record<string, unknown>> {
  installLumaModule();
  serveOnce(specifier, (build) => {
    build.module(specifier, () => ({ contents: code, loader: "js" }));
  });
  return (await import(specifier)) as Record<string, unknown>;
}

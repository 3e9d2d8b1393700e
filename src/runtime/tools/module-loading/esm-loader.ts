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

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Imports `file` with `code` as its source; resolves with the module namespace. */
export async function loadEsm(file: string, code: string): Promise<Record<string, unknown>> {
  installLumaModule();
  if (!served.has(file)) {
    served.add(file);
    Bun.plugin({
      name: `luma-tool-module:${file}`,
      setup(build) {
        build.onLoad({ filter: new RegExp(`^${escapeRegExp(file)}$`) }, () => ({ contents: code, loader: "js" }));
      },
    });
  }
  return (await import(file)) as Record<string, unknown>;
}

const virtual = new Set<string>();

/**
 * Imports `code` as the ES module `specifier`, a name no file has (a built agent's embedded
 * module): a `Bun.plugin` virtual module, since Bun resolves a path before any `onLoad` runs.
 */
export async function loadVirtualEsm(specifier: string, code: string): Promise<Record<string, unknown>> {
  installLumaModule();
  if (!virtual.has(specifier)) {
    virtual.add(specifier);
    Bun.plugin({
      name: `luma-embedded-module:${specifier}`,
      setup(build) {
        build.module(specifier, () => ({ contents: code, loader: "js" }));
      },
    });
  }
  return (await import(specifier)) as Record<string, unknown>;
}

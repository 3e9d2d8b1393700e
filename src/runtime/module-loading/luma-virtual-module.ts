/**
 * The "luma" module tool modules import `LumaToolError` from (spec §9), served from memory.
 *
 * Tool modules live anywhere — a temp dir, beside a program, next to the standalone
 * compiled binary — with no node_modules, so "luma" cannot be a package on disk. Three
 * routes lead here, all to the very same exports object:
 * - ESM and TypeScript, loaded by Bun: a `Bun.plugin` virtual module (`build.module`),
 *   which works in the compiled binary too;
 * - CommonJS, loaded by our own loader: its controlled `require` answers "luma" itself;
 * - the legacy relative path `./src/tool-registry` of the original docs: Bun does not
 *   consult runtime plugins for extensionless relative specifiers, so the loader rewrites
 *   such specifiers in the module text to "luma" before Bun sees it (`rewriteLegacySpecifiers`),
 *   and the CommonJS `require` recognises them directly.
 */
import { isLumaToolError, LumaToolError } from "../../luma-module";
import { rewriteSpecifiers } from "./specifier-rewrite";

export const LUMA_SPECIFIER = "luma";

/** Exactly what `import * as luma from "luma"` gives a tool module. */
export const lumaModuleExports = Object.freeze({ LumaToolError, isLumaToolError });

/** Any relative specifier ending in `src/tool-registry`, with or without a JS/TS extension. */
const LEGACY_SPECIFIER = /^\.{1,2}\/(?:.*\/)?src\/tool-registry(?:\.[cm]?[jt]s)?$/;

export const isLumaSpecifier = (specifier: string): boolean =>
  specifier === LUMA_SPECIFIER || LEGACY_SPECIFIER.test(specifier);

/** The module text with every legacy specifier replaced by "luma"; other text untouched. */
export const rewriteLegacySpecifiers = (code: string): string =>
  rewriteSpecifiers(code, (specifier) =>
    specifier !== LUMA_SPECIFIER && isLumaSpecifier(specifier) ? LUMA_SPECIFIER : undefined,
  );

let installed = false;

/** Registers the "luma" virtual module with Bun, once per process, before any tool module loads. */
export function installLumaModule(): void {
  if (installed) return;
  installed = true;
  Bun.plugin({
    name: "luma-virtual-module",
    setup(build) {
      build.module(LUMA_SPECIFIER, () => ({ exports: { ...lumaModuleExports }, loader: "object" }));
    },
  });
}

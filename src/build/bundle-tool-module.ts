/**
 * One tool module → one JavaScript text with the npm packages it imports bundled in
 * (`Bun.build`, no network: packages come from the project's node_modules or its
 * `dependency_root`, resolved by the loader's own package resolution — package-resolution.ts). The module was already loaded and judged by the ordinary loader
 * (integrity, `dependencies`, the strict checks); the bundler walks its whole graph again, so
 * the `dependencies` allowlist is enforced here on every bare import the module's own files
 * make — a relative helper file included — with the loader's own message.
 *
 * Macros are off here too: `Bun.build` runs a `with { type: "macro" }` import while it
 * bundles — code of the module's choosing, at build time, in a file no loader checked (a
 * helper, a package). Every file is transpiled with macros off first, and one that imports a
 * macro fails the build, as the module itself would fail to load.
 *
 * "luma" (and the legacy `./src/tool-registry` path) stays an import: the runtime serves it.
 * Builtins stay imports too, so the strict policy judges them when the agent runs. CommonJS
 * is bundled for the `node` target: Bun's `bun` target wraps CommonJS output in a function
 * expression that only its own loader calls, while Luma's loaders run the text as a module body.
 */
import { dirname, resolve } from "node:path";
import { readFileSync, statSync } from "node:fs";
import { startupError } from "../diagnostics/luma-error";
import {
  assertDependencyAllowed,
  isPackageSpecifier,
  packageNameOf,
  type DependencyRules,
} from "../runtime/module-loading/dependency-rules";
import type { LoadedModule } from "../runtime/module-loading/loaded-module";
import { isLumaSpecifier, LUMA_SPECIFIER } from "../runtime/module-loading/luma-virtual-module";
import { prepareSource } from "../runtime/module-loading/prepare-source";
import { resolvePackage, resolvePathSpecifier } from "../runtime/module-loading/package-resolution";
import { isPathSpecifier } from "../runtime/module-loading/specifier-forms";
import { isMacroRefusal } from "../runtime/module-loading/load-failure";
import type { EmbeddedModule, ManifestModule } from "./agent-payload";

export const sha256 = (data: string | Uint8Array): string => new Bun.CryptoHasher("sha256").update(data).digest("hex");

type SourceLoader = "js" | "jsx" | "ts" | "tsx";
const loaderOf = (file: string): SourceLoader =>
  file.endsWith("x") ? (/\.tsx$/.test(file) ? "tsx" : "jsx") : /\.[cm]?ts$/.test(file) ? "ts" : "js";

/** `false` turns macros off; Bun's types only know the macro map (as in prepare-source.ts). */
const NO_MACROS = { macro: false } as unknown as Pick<Bun.TranspilerOptions, "macro">;
const transpilers = new Map<SourceLoader, Bun.Transpiler>();
const transpilerFor = (loader: SourceLoader): Bun.Transpiler => {
  let t = transpilers.get(loader);
  if (!t) transpilers.set(loader, (t = new Bun.Transpiler({ loader, target: "bun", ...NO_MACROS })));
  return t;
};

const inNodeModules = (file: string): boolean => /[\\/]node_modules[\\/]/.test(file);

/** A relative directory import (`./lib`), which the loader resolves through its package.json `main`; files are the bundler's. */
function directoryEntry(specifier: string, fromDir: string): { path: string } | undefined {
  if (!statSync(resolve(fromDir, specifier), { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const path = resolvePathSpecifier(specifier, fromDir);
  return path === undefined ? undefined : { path };
}

export interface BundledModule {
  embedded: EmbeddedModule;
  manifest: ManifestModule;
}

/** `programDir`: what a config entry's `dependency_root` is relative to. */
export async function bundleToolModule(m: LoadedModule, programDir: string): Promise<BundledModule> {
  const bytes = readFileSync(m.realPath);
  const { runAs } = prepareSource(m.kind, new TextDecoder().decode(bytes));
  const root = m.entry?.dependency_root === undefined ? undefined : resolve(programDir, m.entry.dependency_root);
  const rules: DependencyRules = { allow: m.entry?.dependencies ? new Set(m.entry.dependencies) : undefined, root };
  const packages = new Set<string>();
  let refusal: unknown;

  const result = await Bun.build({
    entrypoints: [m.realPath],
    target: runAs === "cjs" ? "node" : "bun",
    format: runAs,
    minify: false,
    sourcemap: "none",
    throw: false,
    plugins: [
      {
        name: "luma-build-dependencies",
        setup(build) {
          build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
            const text = readFileSync(args.path, "utf8");
            const loader = loaderOf(args.path);
            try {
              transpilerFor(loader).transformSync(text);
            } catch (e) {
              if (!isMacroRefusal(e)) throw e; // a syntax error: Bun reports it with its position
              refusal ??= startupError(
                `Tool module '${m.shownPath}' could not be bundled: ${args.path} imports a Bun macro (\`with { type: "macro" }\`), which runs code while building, so Luma never runs it.`,
                { catalogCode: "E0701" },
              );
              throw new Error(`macro import in ${args.path}`);
            }
            return { contents: text, loader };
          });
          // Every specifier but `node:module`, which the bundler's own runtime imports (importer
          // "runtime") for its require shim: answered here, it would stay in the output as an
          // unused `require("node:module")` — a builtin the strict policy refuses at run time.
          build.onResolve({ filter: /^(?!node:module$)/ }, (args) => {
            const specifier = args.path;
            if (isLumaSpecifier(specifier)) return { path: LUMA_SPECIFIER, external: true };
            if (specifier === "bun" || specifier.startsWith("bun:")) return { path: specifier, external: true };
            if (isPathSpecifier(specifier) && args.importer !== "") return directoryEntry(specifier, dirname(args.importer));
            if (!isPackageSpecifier(specifier)) return undefined;
            if (!specifier.startsWith("#")) packages.add(packageNameOf(specifier)); // `#name`: a package's own imports map
            const ownImport = !inNodeModules(args.importer); // a package's own dependencies are its business
            if (ownImport) {
              try {
                assertDependencyAllowed(rules, m.shownPath, specifier);
              } catch (e) {
                refusal ??= e;
                return { path: specifier, external: true };
              }
            }
            // Luma's resolution, the loader's: what is bundled is what was loaded and judged.
            const base = (ownImport && root) || dirname(args.importer);
            const path = resolvePackage(specifier, base, args.kind === "require-call" || args.kind === "require-resolve" ? "require" : "import");
            if (path !== undefined) return { path };
            throw new Error(ownImport && root ? `Cannot find package '${specifier}' in dependency_root ${root}` : `Cannot find package '${specifier}' from ${args.importer}`);
          });
        },
      },
    ],
  });
  if (refusal) throw refusal;
  if (!result.success || result.outputs.length !== 1) {
    const why = result.logs.map((log) => String(log.message ?? log)).join("; ") || "no output";
    throw startupError(`Tool module '${m.shownPath}' could not be bundled: ${why}`, { catalogCode: "E0702" });
  }
  const code = await result.outputs[0].text();
  return {
    embedded: { shownPath: m.shownPath, kind: m.kind, runAs, code, entry: m.entry, version: m.version },
    manifest: { path: m.shownPath, sha256: sha256(bytes), bundled_sha256: sha256(code), packages: [...packages].sort() },
  };
}

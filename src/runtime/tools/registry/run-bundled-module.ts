/**
 * Running a built agent's tool module from its bundled text (`luma build` bundles each module
 * with its packages into one JavaScript text, judged at build time). Two places run it: the
 * built agent itself under `"none"` and `"strict"` (build/load-embedded-modules.ts), and the
 * module's child under `"process"` (process-host/child-entry.ts), which receives the text on
 * its channel — so this lives in the runtime, below both.
 *
 * - Under a strict policy, CommonJS and TypeScript run in the strict VM context with the
 *   controlled `require`/`import` (builtins judged against `allow_builtins` when loaded) — an
 *   `.mjs` module loads with Bun's loader, as it does from a file;
 * - otherwise CommonJS runs in Luma's CommonJS loader (the `dependencies` guard still on its
 *   `require`), ES modules in Bun's loader, as a virtual module (no file of that name exists).
 *
 * Each module gets a path no file has (`/$luma-agent/N/name`): its identity, and the base its
 * controlled `require` resolves from; the bundled text loads no project file or package.
 */
import { basename } from "node:path";
import { loadCommonJs } from "../../module-loading/commonjs-loader";
import { assertDependencyAllowed, type DependencyRules } from "../../module-loading/dependency-rules";
import { loadVirtualEsm } from "../../module-loading/esm-loader";
import type { ModuleKind } from "../../module-loading/module-kind";
import type { ModulePolicy } from "../../module-policy/module-policy";

/** What running a bundled module needs (build/agent-payload.ts's EmbeddedModule has these). */
export interface BundledModule {
  shownPath: string;
  kind: ModuleKind;
  runAs: "cjs" | "esm";
  code: string;
  /** The config entry's `dependencies`, which the controlled `require` still enforces. */
  dependencies?: string[];
}

export const bundledPathOf = (index: number, m: Pick<BundledModule, "shownPath">): string => `/$luma-agent/${index}/${basename(m.shownPath)}`;

/** The module's exports (CommonJS `module.exports` or the ESM namespace). */
export async function runBundledModule(index: number, m: BundledModule, policy: ModulePolicy | undefined): Promise<unknown> {
  const realPath = bundledPathOf(index, m);
  const rules: DependencyRules | undefined = m.dependencies ? { allow: new Set(m.dependencies) } : undefined;
  if (policy?.strict) {
    const { runInStrictContext, runsInProcess } = await import("../../module-policy/load-strict-module");
    if (!runsInProcess(m.kind)) return runInStrictContext({ policy, rules, shownPath: m.shownPath, realPath, prepared: m });
  }
  if (m.runAs === "cjs") return loadCommonJs(realPath, m.code, { guard: (specifier) => assertDependencyAllowed(rules, m.shownPath, specifier) });
  return loadVirtualEsm(`luma-agent:${index}/${basename(m.shownPath)}`, m.code);
}

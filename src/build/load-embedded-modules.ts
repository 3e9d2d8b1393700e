/**
 * A built agent's tool modules, loaded from memory (the virtual source provider of
 * `luma build`). Their files, integrity, manifest rules and strict static checks were judged
 * when the agent was built; what stays at run time is what contains them while they run:
 *
 * - under `sandbox: "strict"`, CommonJS and TypeScript run in the strict VM context with the
 *   controlled `require`/`import` (builtins judged against `allow_builtins` when loaded),
 *   exactly as `luma` runs them — an `.mjs` module loads in-process, as it does there;
 * - otherwise CommonJS runs in Luma's CommonJS loader (the `dependencies` guard still on its
 *   `require`), ES modules in Bun's loader, as a virtual module (no file of that name exists).
 *
 * Each module gets a path no file has (`/$luma-agent/N/name`): its identity, and the base its
 * controlled `require` resolves from; the bundled text loads no project file or package.
 */
import { startupError } from "../diagnostics/luma-error";
import { basename } from "node:path";
import type { LoadedModule } from "../runtime/module-loading/loaded-module";
import { loadCommonJs } from "../runtime/module-loading/commonjs-loader";
import { assertDependencyAllowed, type DependencyRules } from "../runtime/module-loading/dependency-rules";
import { loadVirtualEsm } from "../runtime/module-loading/esm-loader";
import { moduleLoadFailure } from "../runtime/module-loading/load-failure";
import { installLumaModule } from "../runtime/module-loading/luma-virtual-module";
import type { ModulePolicy } from "../runtime/module-policy/module-policy";
import type { EmbeddedModule } from "./agent-payload";

const virtualPathOf = (index: number, m: EmbeddedModule): string => `/$luma-agent/${index}/${basename(m.shownPath)}`;

async function exportsOf(index: number, m: EmbeddedModule, policy: ModulePolicy | undefined): Promise<unknown> {
  const realPath = virtualPathOf(index, m);
  const rules: DependencyRules | undefined = m.entry?.dependencies ? { allow: new Set(m.entry.dependencies) } : undefined;
  if (policy?.strict) {
    const { runInStrictContext, runsInProcess } = await import("../runtime/module-policy/load-strict-module");
    if (!runsInProcess(m.kind)) return runInStrictContext({ policy, rules, shownPath: m.shownPath, realPath, prepared: m });
  }
  if (m.runAs === "cjs") return loadCommonJs(realPath, m.code, { guard: (specifier) => assertDependencyAllowed(rules, m.shownPath, specifier) });
  return loadVirtualEsm(`luma-agent:${index}/${basename(m.shownPath)}`, m.code);
}

export async function loadEmbeddedModules(modules: EmbeddedModule[], policy: ModulePolicy | undefined): Promise<LoadedModule[]> {
  // Not yet: a built agent's modules are bundled text with no files of their own to show a
  // child. Stopping beats running them in this process under a weaker tier than asked for.
  if (policy?.tier === "process" && modules.length > 0) {
    throw startupError(`${policy.configName}: tool_module_policy.sandbox "process" cannot run here: a built agent (luma build) does not run its tool modules in child processes yet. Run the program with luma, or choose "strict" explicitly.`, { catalogCode: "E0510" });
  }
  installLumaModule();
  const loaded: LoadedModule[] = [];
  for (const [index, m] of modules.entries()) {
    let exports: unknown;
    try {
      exports = await exportsOf(index, m, policy);
    } catch (e) {
      if ((e as { phase?: unknown }).phase === "startup") throw e; // a refused require: already one of ours
      throw moduleLoadFailure(m.shownPath, e);
    }
    loaded.push({ shownPath: m.shownPath, realPath: virtualPathOf(index, m), kind: m.kind, version: m.version, entry: m.entry, exports });
  }
  return loaded;
}

/**
 * A built agent's tool modules, loaded from memory (the virtual source provider of
 * `luma build`). Their files, integrity, manifest rules and strict static checks were judged
 * when the agent was built; what stays at run time is what contains them while they run —
 * the same as under `luma` (runtime/tools/registry/run-bundled-module.ts):
 *
 * - under `sandbox: "process"`, each module's bundled text is sent to its own child over the
 *   private channel and runs there, confined (process-host/load-process-module.ts);
 * - under `sandbox: "strict"`, CommonJS and TypeScript run in the strict VM context;
 * - otherwise in Luma's CommonJS loader or Bun's, in this process.
 */
import type { LoadedModule } from "../runtime/module-loading/loaded-module";
import { loadAllOrNone } from "../runtime/module-loading/load-all-or-none";
import { moduleLoadFailure } from "../runtime/module-loading/load-failure";
import { installLumaModule } from "../runtime/module-loading/luma-virtual-module";
import type { ModulePolicy } from "../runtime/module-policy/module-policy";
import { bundledPathOf, runBundledModule, type BundledModule } from "../runtime/tools/registry/run-bundled-module";
import type { EmbeddedModule } from "./agent-payload";

const bundledOf = (m: EmbeddedModule): BundledModule => ({ shownPath: m.shownPath, kind: m.kind, runAs: m.runAs, code: m.code, dependencies: m.entry?.dependencies });

export async function loadEmbeddedModules(modules: EmbeddedModule[], policy: ModulePolicy | undefined, env: Record<string, string | undefined> = process.env): Promise<LoadedModule[]> {
  if (policy?.tier === "process") return loadInChildren(modules, policy, env);
  installLumaModule();
  const loaded: LoadedModule[] = [];
  for (const [index, m] of modules.entries()) {
    let exports: unknown;
    try {
      exports = await runBundledModule(index, bundledOf(m), policy);
    } catch (e) {
      if ((e as { phase?: unknown }).phase === "startup") throw e; // a refused require: already one of ours
      throw moduleLoadFailure(m.shownPath, e);
    }
    loaded.push({ shownPath: m.shownPath, realPath: bundledPathOf(index, m), kind: m.kind, version: m.version, entry: m.entry, exports });
  }
  return loaded;
}

/** `"process"`: one child per module, all started at once; the first failure (in order) is reported, the others' children stop. */
async function loadInChildren(modules: EmbeddedModule[], policy: ModulePolicy, env: Record<string, string | undefined>): Promise<LoadedModule[]> {
  const { loadBundledProcessModule } = await import("../runtime/tools/process-host/load-process-module");
  return loadAllOrNone(
    modules.map(async (m, index): Promise<LoadedModule> => {
      const hosted = await loadBundledProcessModule(index, bundledOf(m), policy, env);
      return { shownPath: m.shownPath, realPath: bundledPathOf(index, m), kind: m.kind, version: m.version, entry: m.entry, ...hosted };
    }),
  );
}

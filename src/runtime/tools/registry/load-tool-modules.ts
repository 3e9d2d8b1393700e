/**
 * Loads every tool module a run asks for (the requests of module-loading/module-requests.ts).
 *
 * A module's identity is its resolved real path, so `./tools.ts` on the command line and
 * `tools.ts` in the config are one module, loaded once. Requests for the same file must not
 * disagree on metadata (spec §10: "the same file loaded twice with different metadata is an
 * error"); a request that declares nothing claims nothing and agrees with any other.
 */
import type { ToolModuleEntry } from "../../../config/config-types";
import { startupError } from "../../../diagnostics/luma-error";
import type { LoadedModule, ModuleRequest } from "../../module-loading/loaded-module";
import { loadToolModule, resolveModuleFile } from "./load-tool-module";
import type { ModulePolicy } from "../../module-policy/module-policy";
import { loadAllOrNone } from "../../module-loading/load-all-or-none";
import { stopUnclaimed } from "../process-host/early-start";

/** Metadata fields compared between two requests for one file (lists compared as sets). */
const METADATA_FIELDS = ["version", "integrity", "dependencies", "dependency_root"] as const satisfies readonly (keyof ToolModuleEntry)[];

const metadataValue = (request: ModuleRequest, field: (typeof METADATA_FIELDS)[number]): string | undefined => {
  if (field === "dependency_root") return request.dependencyRoot;
  const value = request.entry?.[field];
  return Array.isArray(value) ? [...new Set(value)].sort().join(", ") : value;
};

function assertSameMetadata(realPath: string, earlier: ModuleRequest, later: ModuleRequest): void {
  for (const field of METADATA_FIELDS) {
    const a = metadataValue(earlier, field);
    const b = metadataValue(later, field);
    if (a !== undefined && b !== undefined && a !== b) {
      throw startupError(
        `Tool module '${realPath}' is loaded twice with different metadata: ${field} '${a}' ('${earlier.shownPath}') vs '${b}' ('${later.shownPath}').`,
        { catalogCode: "E0504" },
      );
    }
  }
}

/** `policy`: the resolved `tool_module_policy` block, if the config has one. */
export async function loadToolModules(requests: ModuleRequest[], policy?: ModulePolicy, env?: Record<string, string | undefined>): Promise<LoadedModule[]> {
  const byFile = new Map<string, ModuleRequest[]>();
  for (const request of requests) {
    const realPath = await resolveModuleFile(request);
    const group = byFile.get(realPath);
    if (!group) byFile.set(realPath, [request]);
    else {
      for (const earlier of group) assertSameMetadata(realPath, earlier, request);
      group.push(request);
    }
  }
  // `"process"`: each module's child starts at once (load-all-or-none.ts); children started
  // early that no load claimed stop either way (early-start.ts).
  if (policy?.tier === "process") {
    try {
      return await loadAllOrNone([...byFile].map(([realPath, group]) => loadToolModule(realPath, group, policy, env)));
    } finally {
      stopUnclaimed();
    }
  }
  const loaded: LoadedModule[] = [];
  try {
    for (const [realPath, group] of byFile) loaded.push(await loadToolModule(realPath, group, policy, env));
  } catch (e) {
    for (const module of loaded) module.close?.(); // children started for the modules before
    throw e;
  }
  return loaded;
}

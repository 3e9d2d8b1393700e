/**
 * The early start of issue #30 (early-start.ts), from what is known before the program is
 * parsed: the config next to it (or `--config`), its `tool_module_policy` and its module
 * list. For each `"process"` module it does what the load will do up to the spawn — real
 * path, integrity, strict's static checks, the view — and spawns the child, idle.
 *
 * It never reports anything: whatever fails here (no config, a bad one, a module the checks
 * refuse, no bwrap) is left to the load, which reports it in its usual place, after the
 * program's own diagnostics. The config and module code below are what the run loads next
 * anyway; a config without `"process"` costs one read of it.
 */
import { readFileSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadConfig } from "../../../config/load-config";
import { moduleRequests } from "../../module-loading/module-requests";
import { resolveModulePolicy } from "../../module-policy/module-policy";
import { startEarlyChild } from "./early-start";

export interface EarlyStartInput {
  file: string;
  cwd: string;
  configPath?: string;
  toolModules: string[];
  env: Record<string, string | undefined>;
}

export async function startChildrenEarly(input: EarlyStartInput): Promise<void> {
  try {
    const programDir = dirname(resolve(input.cwd, input.file));
    const configPath = input.configPath && resolve(input.cwd, input.configPath);
    const config = await loadConfig({ configPath, programDir });
    if (config.config.tool_module_policy?.sandbox !== "process") return;
    const policy = resolveModulePolicy(config);
    if (policy?.tier !== "process") return;
    const [{ findMechanism }, { childLaunch, fileModuleView }, { dependencyRulesOf }, { checkIntegrity }, { isSupportedExtension, moduleKindOf }, { prepareSource }] = await Promise.all([
      import("./sandbox-command"),
      import("./load-process-module"),
      import("../registry/load-tool-module"),
      import("../../module-loading/integrity"),
      import("../../module-loading/module-kind"),
      import("../../module-loading/prepare-source"),
    ]);
    const mechanism = findMechanism();
    if (typeof mechanism === "string") return;
    const started = new Set<string>();
    for (const request of moduleRequests({ config, programDir, cliModules: input.toolModules, cwd: input.cwd })) {
      try {
        const realPath = realpathSync(request.absPath);
        if (started.has(realPath) || !isSupportedExtension(realPath)) continue;
        started.add(realPath);
        const bytes = readFileSync(realPath);
        if (request.entry?.integrity) checkIntegrity(request.shownPath, bytes, request.entry.integrity);
        const kind = moduleKindOf(realPath);
        const raw = new TextDecoder().decode(bytes);
        const view = fileModuleView({ policy, rules: dependencyRulesOf(request), shownPath: request.shownPath, realPath, kind, raw, prepared: prepareSource(kind, raw) });
        const launch = childLaunch(mechanism, policy, view, input.env);
        startEarlyChild(launch.argv(), launch.env);
      } catch {
        // This module's load reports why, in its place.
      }
    }
  } catch {
    // The config's load reports why, in its place.
  }
}

/**
 * Test support for the strict policy: a throw-away project directory (under os.tmpdir())
 * holding tool module files, and loading one of them under a `tool_module_policy` block
 * exactly as start-up does (resolve the block, load the module, read its handlers).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolModuleEntry, ToolModulePolicy } from "../../src/config/config-types";
import type { LoadedModule } from "../../src/runtime/module-loading";
import { loadToolModules } from "../../src/runtime/tools/registry/load-tool-modules";
import { resolveModulePolicy, type ModulePolicy } from "../../src/runtime/module-policy";
import { readModuleTools } from "../../src/runtime/tools/registry";

/** A fresh project directory with `files` (path → text) written into it. */
export function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-module-policy-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export const STRICT: ToolModulePolicy = { sandbox: "strict" };

export function policyFor(dir: string, block: ToolModulePolicy): ModulePolicy {
  return resolveModulePolicy({
    config: { tool_modules: [], tool_contexts: {}, tool_module_policy: block },
    projectDir: dir,
    path: join(dir, "luma.config.json"),
  })!;
}

/** Loads `dir/file` as a config tool module under `block` (`null`: no policy block at all). */
export async function loadModule(
  dir: string,
  file: string,
  block: ToolModulePolicy | null = STRICT,
  entry: Partial<ToolModuleEntry> = {},
): Promise<LoadedModule> {
  const [module] = await loadToolModules(
    [{ shownPath: file, absPath: join(dir, file), entry: { path: file, ...entry }, dependencyRoot: entry.dependency_root && join(dir, entry.dependency_root) }],
    block ? policyFor(dir, block) : undefined,
  );
  return module;
}

/** The handler `name` of the loaded module. */
export async function handlerOf(dir: string, file: string, name: string, block?: ToolModulePolicy | null, entry?: Partial<ToolModuleEntry>) {
  const module = await loadModule(dir, file, block, entry);
  const handler = readModuleTools(module).handlers.get(name);
  if (!handler) throw new Error(`no handler '${name}' in ${file}`);
  return handler as (input?: unknown, signal?: AbortSignal) => unknown;
}

/** What a promise or a throwing call ends in: `{ ok, value }` or `{ ok: false, error }`. */
export async function settle(run: () => unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: { message: string; code?: string; phase?: string; name?: string } }> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    return { ok: false, error: e as { message: string } };
  }
}

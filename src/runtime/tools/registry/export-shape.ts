/**
 * Reads the handlers out of a loaded tool module (spec §10 "Export shape").
 *
 * The object of handlers is the first of `lumaTools` → `tools` → `default` the module
 * exports, else the module object itself. Every value in it must be a function — except
 * `datasources`, an object of bridge functions (spec §12), which may also sit beside
 * `lumaTools`/`tools`/`default` as its own export. Every problem of a module is reported
 * together, each naming the module and the export.
 */
import { startupError } from "../../../diagnostics/luma-error";
import type { LoadedModule } from "../../module-loading/loaded-module";
import { kindOf } from "../../base/value-kind";
import type { DatasourceBridge, ToolHandler } from "./registry-types";

const SHAPE_ORDER = ["lumaTools", "tools", "default"] as const;
const DATASOURCES = "datasources";
/** Set by transpilers on CommonJS output of ES modules; bookkeeping, not an export. */
const IGNORED_KEYS = new Set(["__esModule"]);

export interface ModuleTools {
  handlers: Map<string, ToolHandler>;
  datasources: Map<string, DatasourceBridge>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  (typeof value === "object" && value !== null) || typeof value === "function";

export function readModuleTools(module: LoadedModule): ModuleTools {
  const problems: string[] = [];
  const fail = (what: string) => problems.push(`Tool module '${module.shownPath}' ${what}`);
  const result: ModuleTools = { handlers: new Map(), datasources: new Map() };

  const top = module.exports;
  if (!isObject(top)) {
    fail(`must export an object of tool handlers (got ${kindOf(top)}).`);
    throw startupError(problems.join("\n"), { catalogCode: "E0506" });
  }
  const shape = SHAPE_ORDER.find((key) => top[key] !== undefined);
  const tools = shape ? top[shape] : top;
  const prefix = shape ? `${shape}.` : "";

  if (shape && (typeof tools !== "object" || tools === null || Array.isArray(tools))) {
    fail(`export '${shape}' must be an object of tool handlers (got ${kindOf(tools)}).`);
  } else {
    for (const [name, value] of Object.entries(tools as Record<string, unknown>)) {
      // A shape key exported as undefined is an absent shape, not a bad handler.
      if (IGNORED_KEYS.has(name) || name === DATASOURCES) continue;
      if (!shape && value === undefined && (SHAPE_ORDER as readonly string[]).includes(name)) continue;
      if (typeof value === "function") result.handlers.set(name, value as ToolHandler);
      else fail(`export '${prefix}${name}' must be a function (got ${kindOf(value)}).`);
    }
  }

  // `datasources` beside the handler object, inside it, or both (the same object counts once).
  const bridgeSets = new Set([top[DATASOURCES], isObject(tools) ? tools[DATASOURCES] : undefined]);
  for (const bridges of bridgeSets) {
    if (bridges === undefined) continue;
    if (typeof bridges !== "object" || bridges === null || Array.isArray(bridges)) {
      fail(`export '${DATASOURCES}' must be an object of bridge functions (got ${kindOf(bridges)}).`);
      continue;
    }
    for (const [name, bridge] of Object.entries(bridges)) {
      if (typeof bridge === "function") result.datasources.set(name, bridge as DatasourceBridge);
      else fail(`export '${DATASOURCES}.${name}' must be a function (got ${kindOf(bridge)}).`);
    }
  }

  if (problems.length > 0) throw startupError(problems.join("\n"), { catalogCode: "E0506" });
  return result;
}

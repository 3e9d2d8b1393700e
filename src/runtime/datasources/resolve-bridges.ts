/**
 * The startup bridge check (spec §12): every declared datasource gets its bridge before
 * the first statement runs, or the program stops (exit 2), *exact*:
 * `datasource 'Warehouse' has no registered bridge.`
 *
 * Which bridge, in order: the module bridge a tool module exports under `datasources`
 * (it wins), then `url:` / `url_env:` with a built-in client. A built-in connects on the
 * first statement; nothing here touches a database. The statements of a built-in bridge
 * are checked here too (one statement, placeholders = parameters: statement-text-check.ts),
 * and a `sqlite:` file must exist unless its URL says `?mode=rwc`.
 */
import { existsSync } from "node:fs";
import { startupError } from "../../diagnostics/luma-error";
import { DATASOURCE_KEYS } from "../../language/keys/datasource-keys";
import { readKeys } from "../../language/keys/key-spec";
import type { DatasourceDecl, Program } from "../../syntax/ast";
import type { DatasourceBridge } from "../tools/registry/registry-types";
import { readUrlSetting } from "../../config/url-setting";
import type { Bridge } from "./bridge";
import { datasourceErrors } from "./datasource-errors";
import { parseDatasourceUrl } from "./datasource-url";
import { moduleBridge } from "./module-bridge";
import { postgresBridge } from "./postgres-bridge";
import { sqliteBridge } from "./sqlite-bridge";
import { statementTextProblems } from "./statement-text-check";

export interface DatasourceBridges {
  /** The bridge of a declared datasource (every one has a bridge once startup passed). */
  get(datasource: string): Bridge | undefined;
  /** Closes the connections the built-in bridges opened. */
  close(): Promise<void>;
}

export interface ResolveBridgesOptions {
  program: Program;
  registry: { datasource(name: string): DatasourceBridge | undefined };
  env: Record<string, string | undefined>;
  /** Relative `sqlite:` paths are resolved against the program's directory. */
  programDir: string;
}

function builtinBridge(decl: DatasourceDecl, opts: ResolveBridgesOptions): Bridge {
  const setting = readUrlSetting(readKeys(DATASOURCE_KEYS, decl.entries), opts.env, {
    absent: () => datasourceErrors.noBridge(decl.name),
    envUnset: (variable) => datasourceErrors.envMissing(decl.name, variable),
  });
  const target = parseDatasourceUrl(setting.url, opts.programDir);
  if (target === undefined) {
    throw datasourceErrors.unsupportedUrl(decl.name, setting.variable === undefined ? "its url" : `the value of ${setting.variable}`);
  }
  if (target.kind === "postgres") return postgresBridge(target.url, setting.secrets);
  if (target.path !== ":memory:" && !target.create && !existsSync(target.path)) {
    throw datasourceErrors.sqliteMissing(decl.name, setting.variable === undefined ? target.path : undefined);
  }
  return sqliteBridge(target.path, target.readonly, target.create);
}

export function resolveDatasourceBridges(opts: ResolveBridgesOptions): DatasourceBridges {
  const bridges = new Map<string, Bridge>();
  const problems: string[] = [];
  for (const decl of opts.program.decls) {
    if (decl.kind !== "Datasource" || bridges.has(decl.name)) continue;
    const fromModule = opts.registry.datasource(decl.name);
    try {
      bridges.set(decl.name, typeof fromModule === "function" ? moduleBridge(fromModule) : builtinBridge(decl, opts));
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  problems.push(...statementTextProblems(opts.program, (name) => bridges.get(name)));
  // Every datasource is reported at once, one per line, as the registry reports its tools.
  if (problems.length > 0) throw startupError(problems.join("\n"), { catalogCode: "E0603" });
  return {
    get: (name) => bridges.get(name),
    async close() {
      await Promise.allSettled([...bridges.values()].map((b) => b.close()));
    },
  };
}

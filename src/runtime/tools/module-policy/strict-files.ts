/**
 * A project file a strict module loads (a relative `require`/`import`), read, prepared and
 * checked exactly like the module itself — once per file — before any of it runs.
 */
import { readFileSync } from "node:fs";
import { moduleKindOf } from "../module-loading/module-kind";
import { prepareSource, type PreparedSource } from "../module-loading/prepare-source";
import { projectRelative } from "./project-confinement";
import { checkFile } from "./static-module-checks";
import { refuseViolations, type StrictScope } from "./strict-scope";

export function readCheckedFile(scope: StrictScope, path: string): PreparedSource {
  const raw = readFileSync(path, "utf8");
  const prepared = prepareSource(moduleKindOf(path), raw);
  if (!scope.checked.has(path)) {
    scope.checked.add(path);
    const label = projectRelative(scope.policy.projectDir, path);
    const { violations } = checkFile(scope, { file: path, raw, transpiled: prepared.transpiled, inProcess: false, label });
    if (violations.length > 0) throw refuseViolations(scope, violations);
  }
  return prepared;
}

/**
 * A file a strict module loads (a relative `require`/`import`, or a package), read, prepared
 * and checked by Luma — once per file — before any of it runs. Luma reads the file itself, so
 * the text it checked is the text that runs: no loader hook (`Bun.plugin`) sits in between.
 */
import { readFileSync } from "node:fs";
import { moduleKindOf } from "../module-loading/module-kind";
import { prepareSource, type PreparedSource } from "../module-loading/prepare-source";
import { projectRelative } from "./project-confinement";
import { checkFile } from "./static-module-checks";
import { needsCheck, refuseViolations, type StrictScope } from "./strict-scope";

export function readCheckedFile(scope: StrictScope, path: string): PreparedSource {
  const raw = readFileSync(path, "utf8");
  const prepared = prepareSource(moduleKindOf(path), raw);
  if (needsCheck(scope, path)) {
    const asPackage = scope.packageCode.has(path);
    scope.checked.set(path, asPackage);
    const label = projectRelative(scope.policy.projectDir, path);
    const { violations } = checkFile(scope, { file: path, raw, transpiled: prepared.transpiled, inProcess: false, label, asPackage });
    if (violations.length > 0) throw refuseViolations(scope, violations);
  }
  return prepared;
}

/**
 * The static strict checks over a module and every project file it loads by a literal
 * specifier, transitively — all run before any of them does, and all their violations
 * reported together (spec §10: "all violations of a module listed, not just the first").
 *
 * For an ES module that Bun loads in-process this walk is the only check its imports get;
 * for a module in the VM context it is the first of two (the controlled require/import
 * judges again when the code runs, computed specifiers included).
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { moduleKindOf } from "../module-loading/module-kind";
import { prepareSource } from "../module-loading/prepare-source";
import type { PolicyViolation } from "./policy-violation";
import { projectRelative } from "./project-confinement";
import type { JudgeScope } from "./specifier-judgement";
import { checkFile } from "./static-module-checks";

export interface GraphRoot {
  file: string;
  raw: string;
  transpiled: string;
  /** Bun loads the graph itself (an ES module): computed specifiers are refused now. */
  inProcess: boolean;
}

export interface GraphCheck {
  violations: PolicyViolation[];
  /** Every file whose checks ran (the module first). */
  checked: string[];
}

export function checkModuleGraph(scope: JudgeScope, root: GraphRoot): GraphCheck {
  const violations: PolicyViolation[] = [];
  const seen = new Set<string>([root.file]);
  const queue: { file: string; raw: string; transpiled: string; label?: string }[] = [root];
  while (queue.length > 0) {
    const next = queue.shift()!;
    const result = checkFile(scope, { ...next, inProcess: root.inProcess });
    violations.push(...result.violations);
    for (const file of result.files) {
      if (seen.has(file) || extname(file) === ".json") continue;
      seen.add(file);
      const helper = readHelper(file);
      // A helper that does not parse is reported by the loader, with its position.
      if (helper) queue.push({ file, ...helper, label: projectRelative(scope.policy.projectDir, file) });
    }
  }
  return { violations, checked: [...seen] };
}

function readHelper(file: string): { raw: string; transpiled: string } | undefined {
  try {
    const raw = readFileSync(file, "utf8");
    return { raw, transpiled: prepareSource(moduleKindOf(file), raw).transpiled };
  } catch {
    return undefined;
  }
}

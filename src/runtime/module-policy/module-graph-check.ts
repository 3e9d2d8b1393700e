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
import { isMacroRefusal } from "../module-loading/load-failure";
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

/** Files whose checks ran, by real path: true when they were checked as package code. */
export type CheckedFiles = Map<string, boolean>;

export interface GraphCheck {
  violations: PolicyViolation[];
  /** Every file whose checks ran (the module first). */
  checked: CheckedFiles;
  /** JSON files the graph imports (read, never checked as code): what `"process"` shows its child too. */
  dataFiles: string[];
}

interface QueuedFile {
  file: string;
  raw: string;
  transpiled: string;
  label?: string;
  asPackage: boolean;
}

/**
 * Packages are walked like project files (the builtin allowlist holds for every file the
 * module reaches). A file met as package code and later as the module's own is checked
 * again, as the module's own: the stricter reading wins.
 */
export function checkModuleGraph(scope: JudgeScope, root: GraphRoot): GraphCheck {
  const violations: PolicyViolation[] = [];
  const checked: CheckedFiles = new Map([[root.file, false]]);
  const queue: QueuedFile[] = [{ ...root, asPackage: false }];
  const dataFiles: string[] = [];
  while (queue.length > 0) {
    const next = queue.shift()!;
    const result = checkFile(scope, { ...next, inProcess: root.inProcess });
    violations.push(...result.violations);
    for (const { path, asPackage } of result.files) {
      const before = checked.get(path);
      if (extname(path) === ".json" && !dataFiles.includes(path)) dataFiles.push(path);
      if ((before !== undefined && (before === false || asPackage)) || extname(path) === ".json") continue;
      checked.set(path, asPackage);
      const label = projectRelative(scope.policy.projectDir, path);
      const helper = readHelper(path);
      if ("macro" in helper) violations.push({ rule: "macro", message: helper.macro, line: helper.line, col: helper.col, file: label });
      // A helper that does not parse is reported by the loader, with its position.
      else if (helper.raw !== undefined) queue.push({ file: path, raw: helper.raw, transpiled: helper.transpiled, label, asPackage });
    }
  }
  return { violations, checked, dataFiles };
}

type Helper = { raw: string; transpiled: string } | { raw?: undefined } | { macro: string; line: number; col: number };

function readHelper(file: string): Helper {
  try {
    const raw = readFileSync(file, "utf8");
    return { raw, transpiled: prepareSource(moduleKindOf(file), raw).transpiled };
  } catch (e) {
    // Bun's loader would run the macro when it loads this file: a violation, not a load error later.
    if (!isMacroRefusal(e)) return {};
    const at = (e as { position?: { line: number; column: number } }).position;
    return { macro: `calls a Bun macro (macros run code while a file is transpiled; Luma never runs them)`, line: at?.line ?? 1, col: at?.column ?? 1 };
  }
}

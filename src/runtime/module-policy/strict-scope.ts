/**
 * What the strict loaders of one tool module share: the policy, the module's VM context,
 * the files already run, and the phase — a refusal while the module loads stops the program
 * (startup error, exit 2); the same refusal once it has loaded fails the tool call
 * (TOOL_PERMISSION_DENIED), naming the specifier either way.
 *
 * Packages load through these loaders too — read, checked and run in the module's context,
 * never by Bun's loader — so which files are package code (static-module-checks.ts) is kept
 * here as the graph is walked: a package import's target is, and so is anything package code
 * loads by path, unless the module's own code loads it as well.
 */
import type { DependencyRules } from "../module-loading/dependency-rules";
import type { ContextRealm } from "./strict-context";
import type { CheckedFiles } from "./module-graph-check";
import { refusedAtCallTime, refusedModule, refusedWhileLoading, type PolicyViolation } from "./policy-violation";
import { judgeSpecifier, type JudgeScope, type Target } from "./specifier-judgement";
import type { ImportKind } from "../module-loading/package-resolution";
import { runtimeError } from "../../diagnostics/luma-error";

export interface StrictScope extends JudgeScope {
  shownPath: string;
  realm: ContextRealm;
  phase: "load" | "call";
  /** CommonJS `module` objects by real path (cycles see partial exports, as in Node). */
  commonJs: Map<string, { exports: unknown }>;
  /** ES modules of the context by real path (the linker hands back the same instance). */
  esModules: Map<string, import("node:vm").Module>;
  /** Files whose static checks already ran (true: as package code). */
  checked: CheckedFiles;
  /** Files reached as package code only. */
  packageCode: Set<string>;
}

/** The target of `specifier` from `fromFile`, or the refusal thrown. */
export function admit(scope: StrictScope, specifier: unknown, fromFile: string, kind: ImportKind = "import"): Target {
  if (typeof specifier !== "string") {
    throw refuse(scope, "computed_specifier", `loads a specifier that is not a string (${typeof specifier})`);
  }
  const fromPackage = scope.packageCode.has(fromFile);
  const verdict = judgeSpecifier(scope, specifier, fromFile, fromPackage, kind);
  if (!verdict.ok) throw refuse(scope, verdict.rule, verdict.message);
  const target = verdict.target;
  if (target.kind === "package" || (target.kind === "file" && fromPackage)) {
    if (scope.checked.get(target.path) !== false) scope.packageCode.add(target.path);
  } else if (target.kind === "file") scope.packageCode.delete(target.path);
  return target;
}

/** Whether `path` still needs its checks: never checked, or checked only as package code and now the module's own. */
export const needsCheck = (scope: StrictScope, path: string): boolean =>
  !scope.checked.has(path) || (scope.checked.get(path) === true && !scope.packageCode.has(path));

export const refuse = (scope: StrictScope, rule: Parameters<typeof refusedWhileLoading>[1], message: string) =>
  scope.phase === "load" ? refusedWhileLoading(scope.shownPath, rule, message) : refusedAtCallTime(scope.shownPath, rule, message);

/** A helper file's violations, found when it is first loaded. */
export const refuseViolations = (scope: StrictScope, violations: PolicyViolation[]) =>
  scope.phase === "load"
    ? refusedModule(scope.shownPath, violations)
    : runtimeError("TOOL_PERMISSION_DENIED", refusedModule(scope.shownPath, violations).message, { retryable: false });

export const notFound = (specifier: string, fromFile: string): Error =>
  new Error(`Cannot find module '${specifier}' from '${fromFile}'`);

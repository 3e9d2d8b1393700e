/**
 * How the strict policy says no (spec §10): at load, one startup error (exit code 2) listing
 * every violation of the module, each naming the module, the rule and the line:col; at call
 * time (a computed specifier only known when it runs), a TOOL_PERMISSION_DENIED error naming
 * the specifier.
 */
import { runtimeError, startupError, type LumaError } from "../../diagnostics/luma-error";
import type { DiagnosticCode } from "../../diagnostics/catalog";

/** The rule a violation breaks: a policy key, or one of the always-on strict rules. */
export type PolicyRule =
  | "allow_env"
  | "allow_network"
  | "allow_builtins"
  | "dynamic_code"
  | "child_process"
  | "project_dir"
  | "dependencies"
  | "computed_specifier"
  | "file_type"
  | "bun_api"
  | "macro"
  | "import_attributes"
  | "worker";

export interface PolicyViolation {
  rule: PolicyRule;
  /** What the module does, e.g. "mentions 'process' (\"allow_env\" is false)". */
  message: string;
  line: number;
  col: number;
  /** A helper file of the module (relative to the project); absent for the module itself. */
  file?: string;
}

/** The catalog code of a refusal at load (E0505, `luma explain E0505`). */
const REFUSED: { catalogCode: DiagnosticCode } = { catalogCode: "E0505" };

const where = (v: PolicyViolation): string => `${v.file ? `${v.file}:` : ""}${v.line}:${v.col}`;

/** One line per violation, in source order, all of them (never just the first). */
export function refusedModule(shownPath: string, violations: readonly PolicyViolation[]): LumaError {
  const lines = violations.map((v) => `Tool module '${shownPath}' was refused: ${where(v)} [${v.rule}] ${v.message}`);
  return startupError(lines.join("\n"), REFUSED);
}

/** A refusal with no source position: a specifier computed at run time, met while loading. */
export const refusedWhileLoading = (shownPath: string, rule: PolicyRule, message: string): LumaError =>
  startupError(`Tool module '${shownPath}' was refused: [${rule}] ${message}`, REFUSED);

/** The same refusal once the module has loaded: the tool call fails, it does not crash the run. */
export const refusedAtCallTime = (shownPath: string, rule: PolicyRule, message: string): LumaError =>
  runtimeError("TOOL_PERMISSION_DENIED", `Tool module '${shownPath}' was refused by the strict policy: [${rule}] ${message}`, {
    retryable: false,
  });

/**
 * Runs the strict lint (lint-rules.ts) over one file's raw text; every hit, in source order.
 * Two rules of one name may see the same spelling (`import.meta.env` is read with comments
 * and on code alone): a hit is reported once per rule and position.
 */
import { lineColOf } from "../../diagnostics/source-position";
import { LINT_RULES, type LintTarget } from "./lint-rules";
import type { ModulePolicy } from "./module-policy";
import type { PolicyViolation } from "./policy-violation";
import { decodeEscapes } from "./unicode-escapes";
import { blankComments } from "./comment-blanking";

const MODULE_CODE: LintTarget = { inProcess: false, asPackage: false };

export function lintModuleText(raw: string, policy: ModulePolicy, file?: string, target: LintTarget = MODULE_CODE): PolicyViolation[] {
  const { text, rawOffsets } = decodeEscapes(raw);
  const violations: PolicyViolation[] = [];
  const seen = new Set<string>();
  let code: string | undefined;
  for (const rule of LINT_RULES) {
    if (!rule.applies(policy, target)) continue;
    const read = rule.codeOnly ? (code ??= blankComments(text)) : text;
    for (const match of read.matchAll(rule.pattern)) {
      const message = rule.explain(match, policy, target);
      if (message === undefined) continue;
      const { line, col } = lineColOf(raw, rawOffsets[match.index]);
      const key = `${rule.rule}@${line}:${col}`;
      if (seen.has(key)) continue;
      seen.add(key);
      violations.push({ rule: rule.rule, message, line, col, file });
    }
  }
  return violations.sort((a, b) => a.line - b.line || a.col - b.col);
}

/** Runs the strict lint (lint-rules.ts) over one file's raw text; every hit, in source order. */
import { lineColOf } from "../../../diagnostics/source-position";
import { LINT_RULES } from "./lint-rules";
import type { ModulePolicy } from "./module-policy";
import type { PolicyViolation } from "./policy-violation";
import { decodeEscapes } from "./unicode-escapes";

export function lintModuleText(raw: string, policy: ModulePolicy, file?: string): PolicyViolation[] {
  const { text, rawOffsets } = decodeEscapes(raw);
  const violations: PolicyViolation[] = [];
  for (const rule of LINT_RULES) {
    if (!rule.applies(policy)) continue;
    for (const match of text.matchAll(rule.pattern)) {
      const { line, col } = lineColOf(raw, rawOffsets[match.index]);
      violations.push({ rule: rule.rule, message: rule.explain(match[0]), line, col, file });
    }
  }
  return violations.sort((a, b) => a.line - b.line || a.col - b.col);
}

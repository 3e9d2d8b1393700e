/**
 * How a soft validation issue (spec §3 `@severity("soft")`) is reported, in one place for
 * every output that can carry one: a tool's result, an `ask` result, a query's rows, a typed
 * value in code.
 *
 * stderr gets one line, `warning: ` and the issue's sentence. When the report knows where in
 * the source the value came from, the location ends the line and takes the sentence's
 * period: `warning: Answer.score must be <= 10 (@range) at main.luma:4:3`; otherwise the
 * sentence stands whole: `warning: calc.output.score must be <= 10 (@range).`
 *
 * The trace gets one `validation.soft` event: who produced the value (`tool` and `agent`;
 * `query`/`command` and `datasource`), then the issue's path, rule and message.
 *
 * Each issue of a value is reported once: an `ask` or tool result that a fn then returns
 * (or a typed assignment keeps) is validated again against its declared type, and the same
 * soft rule must not warn a second time under another root (`Mood.level`, then
 * `A.go.return.level`). `freshSoftIssues` remembers, per object value, the issues already
 * reported by their path below the root and their rule.
 */
import type { ValidationIssue } from "../../schema/schema-table-types";

export type SoftIssue = Pick<ValidationIssue, "path" | "rule" | "message">;

/** Who produced the value: `{ tool, agent }`, or `{ query, datasource }`… (in event order). */
export type SoftIssueSource = Record<string, string | null>;

export type SoftValidationEvent = { event: "validation.soft"; path: string; rule: string; message: string } & SoftIssueSource;

const withoutPeriod = (s: string): string => (s.endsWith(".") ? s.slice(0, -1) : s);

/** The stderr line; `where` is a source location (`main.luma:4:3`) when one is known. */
export const softWarningLine = (issue: SoftIssue, where?: string): string =>
  where === undefined ? `warning: ${issue.message}` : `warning: ${withoutPeriod(issue.message)} at ${where}`;

export const softValidationEvent = (source: SoftIssueSource, issue: SoftIssue): SoftValidationEvent =>
  ({ event: "validation.soft", ...source, path: issue.path, rule: issue.rule, message: issue.message }) as SoftValidationEvent;

const reported = new WeakMap<object, Set<string>>();

/** The issues of `value` (validated under `root`) not reported before; they count as reported now. */
export function freshSoftIssues<I extends SoftIssue>(value: unknown, root: string, issues: readonly I[]): readonly I[] {
  if (issues.length === 0 || value === null || typeof value !== "object") return issues;
  let seen = reported.get(value);
  if (seen === undefined) reported.set(value, (seen = new Set()));
  const fresh: I[] = [];
  for (const issue of issues) {
    const below = issue.path.startsWith(root) ? issue.path.slice(root.length) : issue.path;
    const key = `${issue.rule}\u0000${below}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push(issue);
  }
  return fresh;
}

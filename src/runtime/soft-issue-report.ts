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
 */
import type { ValidationIssue } from "../schema/schema-table-types";

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

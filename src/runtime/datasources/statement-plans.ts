/**
 * Queries and commands as tool plans (spec §12: "going through the same pipeline"). Each
 * `query` is a tool with `side_effects: "read"`, each `command` one with `"write"`, so a
 * call — `query x(…)` in code, or the model calling a name listed in an agent's `tools` —
 * gets the same steps as a tool: deny_write and approval for commands, input validation
 * (TOOL_INPUT_INVALID, defaults), the timeout with its AbortSignal (the calling agent's
 * `tool_timeout`, else the default), the circuit breaker, and one trace
 * event (`query.call` / `command.call`). Rows are validated by the handler itself
 * (QUERY_ROW_INVALID with the row index), so step 11 has no output target here.
 */
import type { Field, Program, QueryDecl, SchemaDecl, TypeRef } from "../../syntax/ast";
import type { SchemaTable, ValidationIssue } from "../../schema/schema-table-types";
import { defaultToolOptions } from "../tools/steps/tool-options";
import type { StatementHooks, ToolPlan } from "../tools/steps/tool-plan";
import type { CallContext } from "../tools/steps/call-context";
import { callOutcomeFields } from "../tools/trace/tool-trace-event";
import { datasourceErrors, type StatementRef } from "./datasource-errors";
import type { DatasourceBridges } from "./resolve-bridges";
import { statementRunner } from "./statement-runner";
import type { RowContract, SoftIssueSink } from "./validate-rows";
import { redactSecrets } from "../../diagnostics/redact-secrets";
import { readStatementEntries, statementDescription, type StatementEntries } from "./statement-entries";
import { softValidationEvent, softWarningLine } from "../base/soft-issue-report";

export interface StatementPlanDeps {
  program: Program;
  schemas: SchemaTable;
  bridges: DatasourceBridges;
  /** Receives whole lines: `warning: top.rows[0].score must be <= 10 (@range).` */
  warn: (line: string) => void;
  trace?: (event: object) => void;
}

/** The names of the row schema's fields that pass `keep` (none for a tagged union). */
function fieldsWhere(program: Program, row: TypeRef, keep: (f: Field) => boolean): Set<string> {
  if (row.kind !== "NamedType") return new Set();
  const schema = program.decls.find((d): d is SchemaDecl => d.kind === "Schema" && d.name === row.name);
  return new Set(schema?.fields.filter(keep).map((f) => f.name) ?? []);
}

/** Fields where SQL NULL means "absent": written `name?:` or given an `@default`. */
const isOptional = (f: Field) => f.optional || f.annotations.some((a) => a.name === "default");
const isBool = (f: Field) => f.type.kind === "PrimType" && f.type.name === "bool";
const isString = (f: Field) => f.type.kind === "PrimType" && f.type.name === "string";

function hooks(s: StatementRef): StatementHooks {
  return {
    timeoutError: (ms) => datasourceErrors.timeout(s, ms),
    traceEvent(ctx: CallContext, durationMs: number, error?: { code?: string; retryable: boolean }) {
      const out = ctx.output;
      return {
        event: `${s.kind}.call`,
        [s.kind]: s.name,
        datasource: s.datasource,
        ...callOutcomeFields(ctx, durationMs, error),
        // How many rows the call returned (a count, never the data).
        rows: error !== undefined ? null : Array.isArray(out) ? out.length : out === null || out === undefined ? 0 : 1,
      };
    },
  };
}

export function statementToolPlans(deps: StatementPlanDeps): ToolPlan[] {
  const soft: SoftIssueSink = (s: StatementRef, issue: ValidationIssue) => {
    const redacted = { path: issue.path, rule: issue.rule, message: redactSecrets(issue.message, s.secrets) };
    deps.warn(softWarningLine(redacted));
    deps.trace?.(softValidationEvent({ [s.kind]: s.name, datasource: s.datasource }, redacted));
  };
  const plans: ToolPlan[] = [];
  for (const decl of deps.program.decls) {
    if (decl.kind !== "Query" && decl.kind !== "Command") continue;
    const entries = readStatementEntries(decl);
    const bridge = entries.source === undefined ? undefined : deps.bridges.get(entries.source);
    // The checker rejects an unknown source and startup a datasource without bridge.
    if (bridge === undefined || entries.sql === undefined) continue;
    plans.push(statementPlan(decl, entries, bridge, deps, soft));
  }
  return plans;
}

function statementPlan(
  decl: QueryDecl,
  entries: StatementEntries,
  bridge: NonNullable<ReturnType<DatasourceBridges["get"]>>,
  deps: StatementPlanDeps,
  soft: SoftIssueSink,
): ToolPlan {
  const kind = decl.kind === "Query" ? "query" : "command";
  const statement: StatementRef = { kind, name: decl.name, datasource: entries.source!, secrets: bridge.secrets };
  const many = kind === "query" && decl.returns.kind === "ArrayType";
  const rowType = decl.returns.kind === "ArrayType" ? decl.returns.element : decl.returns;
  const contract: RowContract = {
    statement,
    rowType,
    many,
    optionalFields: fieldsWhere(deps.program, rowType, isOptional),
    intBooleanFields: bridge.origin === "sqlite" ? fieldsWhere(deps.program, rowType, isBool) : undefined,
    stringFields: fieldsWhere(deps.program, rowType, isString),
  };
  const options = defaultToolOptions();
  options.sideEffects = kind === "query" ? "read" : "write";
  options.description = statementDescription(decl, entries);
  const handler = statementRunner({ decl, sql: entries.sql!, bridge, schemas: deps.schemas, contract, soft });
  return {
    name: decl.name,
    options,
    inputTarget: { queryInput: decl.name },
    inputRoot: `${decl.name}.input`,
    outputRoot: `${decl.name}.output`,
    outputIsObject: false,
    errorRoot: `${decl.name}.error`,
    needs: [],
    handler: handler as ToolPlan["handler"],
    wantsSignal: true,
    statement: hooks(statement),
  };
}

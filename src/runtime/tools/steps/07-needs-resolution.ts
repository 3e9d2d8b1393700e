/**
 * Step 7 — needs resolution + type check (TOOL_CONTEXT_INVALID).
 *
 * Each `needs <name>: <Type>` is built from `tool_contexts.<name>` in luma.config.json:
 * every field's environment variable is read and parsed by its kind. The built object is
 * checked against the fields the type declares only; fields the type does not declare
 * pass through to the handler (spec §8: `Database { user, port }` fed a context that also
 * holds `password`). The agent's `tool_contexts` list was checked when the plan was built.
 *
 * Errors name the context, the field and the variable, never a value: even a schema
 * issue is reported by its path and rule, not by the schema table's sentence.
 *
 * The variables are read on every call, but parsing and checking run again only when one
 * of their texts changed: the last good context is kept and each call gets a shallow copy.
 * Contexts with a `json` field are rebuilt every time, so no handler shares nested objects.
 */
import type { ValidationIssue } from "../../../schema/schema-table-types";
import { ENV_PARSERS, FAILED, PARSE_KIND_NOUN } from "./env-parsers";
import type { ParseKind, PipelineRuntime, StepFactory } from "./step";
import type { NeedsPlan } from "./tool-plan";
import { toolErrors } from "./tool-errors";

interface Source {
  field: string;
  env: string;
  parse: ParseKind;
}

interface ContextMemo {
  sources: Source[];
  reusable: boolean;
  raws: (string | undefined)[];
  value: Record<string, unknown> | undefined;
}

const fieldOf = (issue: ValidationIssue, root: string): string =>
  issue.path.startsWith(`${root}.`) ? issue.path.slice(root.length + 1).split(/[.[]/)[0] : issue.path;

const memoOf = (rt: PipelineRuntime, tool: string, need: NeedsPlan): ContextMemo => {
  if (need.memo !== undefined) return need.memo as ContextMemo;
  const config = rt.toolContexts[need.name];
  if (config === undefined) throw toolErrors.contextUndefined(tool, need.name);
  const sources = Object.entries(config).map(([field, s]) => ({ field, env: s.env, parse: s.parse ?? "string" }));
  const memo: ContextMemo = { sources, reusable: sources.every((s) => s.parse !== "json"), raws: [], value: undefined };
  need.memo = memo;
  return memo;
};

const build = (rt: PipelineRuntime, need: NeedsPlan, sources: Source[]): Record<string, unknown> => {
  const value: Record<string, unknown> = {};
  for (const { field, env, parse } of sources) {
    const raw = rt.env[env];
    if (raw === undefined) throw toolErrors.contextVariableMissing(need.name, field, env);
    const parser = ENV_PARSERS[parse];
    const parsed = parser === undefined ? FAILED : parser(raw);
    if (parsed === FAILED) throw toolErrors.contextParseFailed(need.name, field, env, PARSE_KIND_NOUN[parse] ?? parse);
    value[field] = parsed;
  }
  // Only the declared fields are checked; the rest pass through untouched.
  let checked: Record<string, unknown> = value;
  if (need.fields !== undefined) {
    checked = {};
    for (const f of need.fields) if (f in value) checked[f] = value[f];
  }
  const r = rt.schemas.validate(need.type, checked, "input", need.name);
  const issue = r.hard[0] ?? (r.ok ? undefined : r.soft[0]);
  if (issue !== undefined) {
    const field = fieldOf(issue, need.name);
    if (issue.rule === "required" && !(field in value)) throw toolErrors.contextFieldMissing(need.name, field, need.typeLabel);
    const env = sources.find((s) => s.field === field)?.env;
    throw toolErrors.contextFieldInvalid(need.name, field, env, need.typeLabel, issue.rule);
  }
  if (!r.ok) throw toolErrors.contextFieldInvalid(need.name, need.name, undefined, need.typeLabel, "type");
  return need.fields === undefined ? (r.value as Record<string, unknown>) : { ...value, ...(r.value as object) };
};

const resolve = (rt: PipelineRuntime, tool: string, need: NeedsPlan): unknown => {
  const memo = memoOf(rt, tool, need);
  const { sources, raws } = memo;
  if (memo.value !== undefined) {
    let same = true;
    for (let i = 0; i < sources.length && same; i++) same = rt.env[sources[i].env] === raws[i];
    if (same) return { ...memo.value };
  }
  const value = build(rt, need, sources);
  if (memo.reusable && value !== null && typeof value === "object") {
    memo.raws = sources.map((s) => rt.env[s.env]);
    memo.value = value;
    return { ...value };
  }
  return value;
};

export const needsResolution: StepFactory = (rt) => ({
  name: "7 needs resolution",
  applies: (plan) => plan.tool.needs.length > 0,
  run(ctx, next) {
    const plan = ctx.plan;
    if (plan.deniedContext !== undefined) throw toolErrors.contextNotAllowed(plan.tool.name, plan.agent.name ?? "", plan.deniedContext);
    const needs: Record<string, unknown> = {};
    for (const need of plan.tool.needs) needs[need.name] = resolve(rt, plan.tool.name, need);
    ctx.needs = needs;
    return next(ctx);
  },
});

/**
 * Agents with parameters (issue #25, docs/language/agents.md § Parameters): an agent
 * declared `agent Support(user: User)` is called `Support(u).reply(…)` — the other form is
 * an error with the fix, both ways — and its arguments fit its parameters as a fn's do; the
 * parameters are read-only in its methods; its `system` interpolates them and nothing else
 * (every agent's: a `{…}` naming anything else is never sent as written); a `tools: [t when
 * COND]` condition is a bool over them alone; and `when` appears nowhere else.
 *
 * The parameters are in scope through `CodeUnit.context` (`context.ts`); the `when`
 * conditions are typed as a unit of their own, so the name and field rules judge them too.
 */
import type { AgentDecl, ConfigValue, Entry, Expr, Field, TemplatePart } from "../../syntax/ast";
import { CHECK_AGENT_CONTEXT_DIAGNOSTICS } from "../../diagnostics/catalog/check-agent-context-codes";
import { arityText, isBuiltin } from "../../language/builtins";
import { exprsOf, forEachInExpr, stmtsOf } from "../../language/walk";
import { agentToolArgumentsOf, systemTemplateOf, toolConditionsOf } from "../../language/agent-context";
import type { CheckContext, CodeUnit } from "../context";
import { messages } from "../messages";
import { isInScope } from "../../language/name-resolution";
import { canBe, mismatch } from "../types/assignability";
import { readFieldType } from "../types/field-access";
import { reasonHint, typeMessages } from "../types/type-messages";
import { typeText, valueText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

const hasParams = (agent: AgentDecl): boolean => (agent.params?.length ?? 0) > 0;
const paramsText = (agent: AgentDecl): string => (agent.params ?? []).map((p) => p.name).join(", ");
const isRequired = (p: Field) => !p.optional && !p.annotations.some((a) => a.name === "default");
const PATH = /^\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*$/;
const HINTS = CHECK_AGENT_CONTEXT_DIAGNOSTICS.systemInterpolation.hints;

export function agentContext(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    agentCalls(ctx, unit);
    if (unit.kind === "method" && unit.context.length > 0) readOnly(ctx, unit);
  }
  for (const decl of ctx.program.decls) {
    if (decl.kind === "Agent") {
      systemTemplate(ctx, decl);
      toolConditions(ctx, decl);
      agentToolArguments(ctx, decl);
    }
    const entries = decl.kind === "Tool" ? decl.options : "entries" in decl ? decl.entries : [];
    for (const entry of entries) whenOutsideTools(ctx, decl.kind === "Agent", entry, entry.value);
  }
}

/** The agent a callee name denotes, when no variable or fn of the unit takes the name first. */
function agentNamed(ctx: CheckContext, unit: CodeUnit, name: string): AgentDecl | undefined {
  if (unit.locals.has(name) || ctx.symbols.fns.has(name)) return undefined;
  if (unit.agent && ctx.agentMethods(unit.agent).has(name)) return undefined;
  return ctx.symbols.agents.get(name);
}

function agentCalls(ctx: CheckContext, unit: CodeUnit): void {
  const given = new Set<Expr>();
  for (const e of exprsOf(unit.flat, "Call")) {
    const callee = e.callee;
    if (callee.kind !== "Member") continue;
    if (callee.object.kind === "Name") {
      const agent = agentNamed(ctx, unit, callee.object.name);
      if (agent && hasParams(agent)) ctx.report(messages.agentNeedsArguments(agent.name, callee.property, paramsText(agent)), callee.span);
    } else if (callee.object.kind === "Call" && callee.object.callee.kind === "Name") {
      const agent = agentNamed(ctx, unit, callee.object.callee.name);
      if (!agent) continue;
      given.add(callee.object);
      if (!hasParams(agent)) ctx.report(messages.agentTakesNoArguments(agent.name, callee.property), callee.object.span);
      else agentArguments(ctx, agent, callee.object);
    }
  }
  for (const e of exprsOf(unit.flat, "Call")) {
    if (e.callee.kind !== "Name" || given.has(e)) continue;
    const agent = agentNamed(ctx, unit, e.callee.name);
    if (agent) ctx.report(messages.agentCallWithoutMethod(agent.name), e.span);
  }
}

/** `Support(u)`: the count and the types of the arguments, as a fn call's are judged. */
function agentArguments(ctx: CheckContext, agent: AgentDecl, call: Extract<Expr, { kind: "Call" }>): void {
  const params = agent.params ?? [];
  const arity = { min: params.filter(isRequired).length, max: params.length };
  if (call.args.length < arity.min || call.args.length > arity.max) {
    ctx.report(messages.arity(`Agent '${agent.name}'`, arityText(arity), call.args.length), call.span);
    return;
  }
  const typed = typesOf(ctx);
  const m = typeMessages.argumentMismatch;
  call.args.forEach((arg, i) => {
    const target = typed.table.ofField(params[i]);
    const value = typed.typeOf(arg);
    const why = mismatch(value, target);
    if (why === undefined) return;
    const text = m.text(i + 1, params[i].name, `agent '${agent.name}'`, typeText(target), valueText(value, target));
    ctx.report(text, arg.span, { code: m.code, hints: reasonHint(why, value, target) });
  });
}

/** A method may not assign an agent parameter, nor shadow one with a parameter or a variable. */
function readOnly(ctx: CheckContext, unit: CodeUnit): void {
  const agent = unit.agent!.name;
  const params = new Set(unit.context.map((p) => p.name));
  for (const p of unit.params) if (params.has(p.name)) ctx.report(messages.agentParamAssigned(p.name, agent), p.nameSpan);
  for (const s of stmtsOf(unit.flat, "Assign")) if (params.has(s.name)) ctx.report(messages.agentParamAssigned(s.name, agent), s.nameSpan);
  for (const s of stmtsOf(unit.flat, "For")) if (params.has(s.name)) ctx.report(messages.agentParamAssigned(s.name, agent), s.nameSpan);
  for (const s of stmtsOf(unit.flat, "Try")) if (params.has(s.errName)) ctx.report(messages.agentParamAssigned(s.errName, agent), s.errSpan);
  for (const s of stmtsOf(unit.flat, "AssignInto")) {
    let root: Expr = s.target;
    while (root.kind === "Member" || root.kind === "Index") root = root.object;
    if (root.kind === "Name" && params.has(root.name)) ctx.report(messages.agentParamAssigned(root.name, agent), s.target.span);
  }
}

/** Every `{…}` of an agent's `system` must be a parameter or a field path over one. */
function systemTemplate(ctx: CheckContext, agent: AgentDecl): void {
  const template = systemTemplateOf(agent);
  if (!template) return;
  const typed = typesOf(ctx);
  const params = new Map((agent.params ?? []).map((p) => [p.name, p]));
  for (const part of template) {
    if (typeof part === "string" || holeResolves(part, params, typed)) continue;
    const hints: string[] = [HINTS.escape];
    if (params.size > 0) hints.push(HINTS.params([...params.keys()].join(", ")));
    ctx.report(messages.systemInterpolation(agent.name, part.closed ? `'{${part.source.trim()}}'` : "an unclosed '{'"), part.span, { hints });
  }
}

function holeResolves(hole: Exclude<TemplatePart, string>, params: Map<string, Field>, typed: ReturnType<typeof typesOf>): boolean {
  const path = hole.closed ? PATH.exec(hole.source)?.[1].split(".") : undefined;
  const param = path && params.get(path[0]);
  if (!path || !param) return false;
  let type = typed.table.ofField(param);
  for (const field of path.slice(1)) {
    const read = readFieldType(type, field);
    if (read.verdict === "unknown-field") return false;
    type = read.type;
  }
  return true;
}

/** `t when COND`: COND a bool, reading the agent's parameters (their fields, literals, builtins) only. */
function toolConditions(ctx: CheckContext, agent: AgentDecl): void {
  const unit = ctx.units.find((u) => u.kind === "when" && u.agent === agent);
  if (!unit) return;
  const typed = typesOf(ctx);
  const params = new Set(unit.context.map((p) => p.name));
  const builtinCallees = new Set<Expr>();
  for (const c of exprsOf(unit.flat, "Call")) if (c.callee.kind === "Name" && isBuiltin(c.callee.name) && !ctx.symbols.fns.has(c.callee.name)) builtinCallees.add(c.callee);
  for (const { tool, when } of toolConditionsOf(agent)) {
    forEachInExpr(when, (e) => {
      const what = forbiddenRead(ctx, unit, e, params, builtinCallees);
      if (what) ctx.report(messages.toolConditionReads(tool, what), e.span);
    });
    const t = typed.typeOf(when);
    if (!canBe(t, ["bool", "null", "never"])) ctx.report(messages.toolConditionNotBool(tool, typeText(t)), when.span);
  }
}

/**
 * `tools: [Refunds(user).handle]` (issue #27 §1): the arguments fit Refunds' parameters as a
 * call's do, and read only the listing agent's parameters — evaluated at each model call,
 * outside any method.
 */
function agentToolArguments(ctx: CheckContext, agent: AgentDecl): void {
  const items = agentToolArgumentsOf(agent);
  const unit = ctx.units.find((u) => u.kind === "when" && u.agent === agent);
  if (items.length === 0 || !unit) return;
  const params = new Set(unit.context.map((p) => p.name));
  const builtinCallees = new Set<Expr>();
  for (const c of exprsOf(unit.flat, "Call")) if (c.callee.kind === "Name" && isBuiltin(c.callee.name) && !ctx.symbols.fns.has(c.callee.name)) builtinCallees.add(c.callee);
  for (const item of items) {
    for (const arg of item.args) {
      forEachInExpr(arg, (e) => {
        const what = forbiddenRead(ctx, unit, e, params, builtinCallees);
        if (what) ctx.report(messages.agentToolArgumentReads(item.tool, what), e.span);
      });
    }
    const target = ctx.symbols.agents.get(item.agent);
    if (!target || !hasParams(target)) continue; // E1101 / E0263 (agent-tool-items.ts)
    const call: Extract<Expr, { kind: "Call" }> = { kind: "Call", callee: { kind: "Name", name: item.agent, span: item.span }, args: [...item.args], span: item.span };
    agentArguments(ctx, target, call);
  }
}

/** What a condition may not read, as the message names it; undefined when it may. */
function forbiddenRead(ctx: CheckContext, unit: CodeUnit, e: Expr, params: Set<string>, builtinCallees: Set<Expr>): string | undefined {
  // An unknown name is the names rule's error.
  if (e.kind === "Name") return params.has(e.name) || builtinCallees.has(e) || !isInScope(unit.read(e.name)) ? undefined : `'${e.name}'`;
  if (e.kind === "Call") return e.callee.kind === "Name" && builtinCallees.has(e.callee) ? undefined : "a function or method call";
  if (e.kind === "ToolCall") return "a tool call";
  if (e.kind === "DbCall") return `a ${e.op}`;
  if (e.kind === "Ask") return "'ask'";
  return undefined;
}

/** `name when COND` anywhere but an agent's `tools`. */
function whenOutsideTools(ctx: CheckContext, inAgent: boolean, entry: Entry, value: ConfigValue): void {
  if (value.kind === "List") {
    const allowed = inAgent && entry.key === "tools" && value === entry.value;
    for (const item of value.items) {
      if (item.kind === "Path" && item.when && !allowed) ctx.report(messages.whenOutsideAgentTools(entry.key), item.when.span);
      whenOutsideTools(ctx, inAgent, entry, item);
    }
  } else if (value.kind === "Obj") {
    for (const inner of value.entries) whenOutsideTools(ctx, false, inner, inner.value);
  }
}

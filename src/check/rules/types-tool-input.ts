/**
 * §4, §12 the input of `tool name(…)`, `query name(…)` and `command name(…)` is checked
 * against the declared parameters before anything runs (the runtime would fail with
 * TOOL_INPUT_INVALID): with an object literal, each missing required parameter, each
 * unknown one (with the closest name as a hint) and each value that can never fit its
 * parameter — an enum literal not in the enum included; with any other value, its type
 * must be able to fit the parameters as a whole.
 */
import type { Expr, Field, QueryDecl, ToolDecl } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { didYouMean } from "../../diagnostics/did-you-mean";
import { canBe, mismatch } from "../types/assignability";
import { ownerText, reasonHint, typeMessages } from "../types/type-messages";
import { hasDefault } from "../types/type-of-schema";
import { typeText, valueText } from "../types/type-model";
import { typesOf, type TypedProgram } from "../types/typed-program";
import { oneOf } from "../messages";

/** What a call is checked against: its declaration's contract, the same for every call of it. */
export interface Contract {
  owner: string;
  /** The name the parameters object is cached under. */
  key: string;
  /** How messages print the parameters: `calculate(…)`. */
  name: string;
  params: readonly Field[];
  /** The parameters by name (the last, if repeated: a repeat is the duplicate rule's error). */
  byName: ReadonlyMap<string, Field>;
}

export interface CallInput extends Contract {
  arg: Expr;
}

/** Contracts by declaration, built once: a large program calls each tool many times. */
const contracts = new WeakMap<ToolDecl | QueryDecl, Contract>();

function contractOf(kind: "tool" | "query" | "command", decl: ToolDecl | QueryDecl): Contract {
  let c = contracts.get(decl);
  if (!c) {
    const byName = new Map<string, Field>();
    for (const p of decl.params) byName.set(p.name, p);
    c = { owner: ownerText(kind, decl.name), key: `${kind} ${decl.name}`, name: `${decl.name}(…)`, params: decl.params, byName };
    contracts.set(decl, c);
  }
  return c;
}

/** The declared contract a tool/query/command call's argument is validated against. */
export function callInput(ctx: CheckContext, e: Expr): CallInput | undefined {
  if (e.kind === "ToolCall") {
    const tool = ctx.symbols.tools.get(e.tool);
    return tool && { ...contractOf("tool", tool), arg: e.arg };
  }
  if (e.kind === "DbCall") {
    const decl = (e.op === "query" ? ctx.symbols.queries : ctx.symbols.commands).get(e.name);
    return decl && { ...contractOf(e.op, decl), arg: e.arg };
  }
  return undefined;
}

export function typesToolInput(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  for (const e of typed.found.inputs) {
    const input = callInput(ctx, e);
    if (!input) continue;
    if (input.arg.kind === "Object") checkLiteral(ctx, typed, input, input.arg);
    else checkValue(ctx, typed, input);
  }
}

function checkLiteral(ctx: CheckContext, typed: TypedProgram, input: CallInput, arg: Extract<Expr, { kind: "Object" }>): void {
  const { byName } = input;
  const given = new Set<string>();
  for (const entry of arg.entries) {
    given.add(entry.key);
    const param = byName.get(entry.key);
    if (!param) {
      const m = typeMessages.unknownParameter;
      ctx.report(m.text(input.owner, entry.key), entry.keySpan, { code: m.code, hints: didYouMean(entry.key, byName.keys()) });
      continue;
    }
    const target = typed.table.ofRef(param.type);
    const value = typed.typeOf(entry.value);
    const why = mismatch(value, target);
    if (why === undefined) continue;
    const m = typeMessages.parameterMismatch;
    const [v, t] = [valueText(value, target), typeText(target)];
    const enumLiteral = target.kind === "string" && target.values && value.kind === "string" && value.values?.length === 1;
    const text = enumLiteral ? m.variants.enumValues(input.owner, param.name, oneOf(target.values!), typeText(value)) : m.text(input.owner, param.name, t, v);
    ctx.report(text, entry.value.span, { code: m.code, hints: reasonHint(why, value, target) });
  }
  for (const p of input.params) {
    if (p.optional || hasDefault(p) || given.has(p.name)) continue;
    const m = typeMessages.missingParameter;
    ctx.report(m.text(input.owner, p.name), arg.span, { code: m.code });
  }
}

function checkValue(ctx: CheckContext, typed: TypedProgram, input: CallInput): void {
  const value = typed.typeOf(input.arg);
  const why = mismatch(value, typed.table.paramsObject(input.key, input.name, input.params));
  if (why === undefined) return;
  const m = typeMessages.inputMismatch;
  const reason = canBe(value, ["object"]) ? why : "it is not an object";
  ctx.report(m.text(input.owner, valueText(value), reason), input.arg.span, { code: m.code });
}

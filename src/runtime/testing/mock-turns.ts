/**
 * `mock Model [turns]` → a ScriptedModel (scripted-model.ts). The turns are written with
 * constants only (numbers, strings without `{…}`, bools, null, arrays, objects), so a
 * script says exactly what the model answers, whatever the test computes. Each turn is
 *
 *   { calls: [{ tool: "name", input: { … } }, …], text: "…"? }   the model calls tools
 *   { answer: value }                                            its final value
 *   { text: "…" }                                                a raw answer text
 *
 * Anything else is a RUNTIME_ERROR naming the `mock`'s file:line:col; so is a mock of a
 * name that is not a model.
 */
import type { Expr, MockSetup, Program } from "../../syntax/ast";
import { assertNever } from "../../syntax/assert-never";
import { errorAt, locationOf, type SourceOf } from "../interpreter/runtime-errors";
import type { ScriptedCall, ScriptedModel, ScriptedTurn } from "./scripted-model";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export class NotConstant extends Error {
  constructor(readonly expr: Expr) {
    super("not a constant");
  }
}

export function constant(e: Expr): Json {
  switch (e.kind) {
    case "Num":
    case "Bool":
      return e.value;
    case "Null":
      return null;
    case "Str":
      if (e.parts.every((p) => typeof p === "string")) return e.parts.join("");
      throw new NotConstant(e);
    case "Unary":
      if (e.op === "-" && e.operand.kind === "Num") return -e.operand.value;
      throw new NotConstant(e);
    case "Array":
      return e.items.map(constant);
    case "Object": {
      const o: { [k: string]: Json } = Object.create(null);
      for (const entry of e.entries) o[entry.key] = constant(entry.value);
      return { ...o };
    }
    case "Name":
    case "Member":
    case "Index":
    case "Call":
    case "Lambda":
    case "Binary":
    case "ToolCall":
    case "Ask":
    case "DbCall":
    case "ParallelFor":
      throw new NotConstant(e);
    default:
      return assertNever(e, () => {
        throw new NotConstant(e);
      });
  }
}

const SHAPE = 'a mock turn is { calls: [{ tool: "name", input: {…} }] }, { answer: value } or { text: "…" }';

export function scriptedModels(program: Program, mocks: readonly MockSetup[], sourceOf: SourceOf): ScriptedModel[] {
  const models = new Set(program.decls.filter((d) => d.kind === "Model").map((d) => d.name));
  return mocks.map((m) => {
    if (!models.has(m.model)) throw errorAt(sourceOf, "RUNTIME_ERROR", `mock ${m.model}: no model is declared with that name`, m.modelSpan);
    let value: Json;
    try {
      value = constant(m.turns);
    } catch (e) {
      if (!(e instanceof NotConstant)) throw e;
      throw errorAt(sourceOf, "RUNTIME_ERROR", `mock ${m.model}: turns are written with constants only (no names, calls or {…} in strings)`, e.expr.span);
    }
    if (!Array.isArray(value)) throw errorAt(sourceOf, "RUNTIME_ERROR", `mock ${m.model}: the turns are an array, one item per model request`, m.turns.span);
    const bad = () => errorAt(sourceOf, "RUNTIME_ERROR", `mock ${m.model}: ${SHAPE}`, m.turns.span);
    const turns = value.map((t): ScriptedTurn => {
      if (typeof t !== "object" || t === null || Array.isArray(t)) throw bad();
      if ("calls" in t) {
        if (!Array.isArray(t.calls)) throw bad();
        const calls = t.calls.map((c): ScriptedCall => {
          if (typeof c !== "object" || c === null || Array.isArray(c) || typeof c.tool !== "string") throw bad();
          return { tool: c.tool, input: c.input ?? {} };
        });
        return typeof t.text === "string" ? { calls, text: t.text } : { calls };
      }
      if ("answer" in t) return { answer: t.answer };
      if (typeof t.text === "string") return { text: t.text };
      throw bad();
    });
    return { model: m.model, turns, where: locationOf(sourceOf, m.span) };
  });
}

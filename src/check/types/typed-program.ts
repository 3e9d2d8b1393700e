/**
 * The typed program: every expression's type, computed once per check (the first type
 * rule asks, the others reuse it) and exposed for tools that show types (`typeProgram` in
 * `../index.ts`, the editor's hover later).
 *
 * The typer only infers; it never judges. The rules in `../rules/types-*.ts` read the
 * result and report, one rule per file, so removing a rule removes exactly its errors.
 */
import type { Expr, FnDecl, Stmt } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { createTypeTable, type TypeTable } from "./type-of-schema";
import type { FieldRead } from "./field-access";
import { emptyFound, type FoundNodes } from "./infer-expression";
import { typeParallelLoop, typeUnit, type StatementTyper } from "./type-statements";
import { UNKNOWN, type Type } from "./type-model";

export interface TypedProgram {
  table: TypeTable;
  /** Every expression's type. */
  types: ReadonlyMap<Expr, Type>;
  /** The fn or agent method each call runs. */
  callees: ReadonlyMap<Expr, FnDecl>;
  /** `x = v` after `x: T = …`: the type x was declared with. */
  declared: ReadonlyMap<Stmt, Type>;
  /** What each `a.b` reads, with the field rules' verdict. */
  fieldReads: ReadonlyMap<Expr, FieldRead>;
  /** The nodes the rules judge, each once. */
  found: FoundNodes;
  /** The type of an expression (`unknown` where the typer did not reach, e.g. a callee). */
  typeOf(e: Expr): Type;
}

const memo = new WeakMap<CheckContext, TypedProgram>();

export function typesOf(ctx: CheckContext): TypedProgram {
  let typed = memo.get(ctx);
  if (!typed) {
    typed = typeUnits(ctx);
    memo.set(ctx, typed);
  }
  return typed;
}

function typeUnits(ctx: CheckContext): TypedProgram {
  const table = createTypeTable(ctx.symbols);
  const types = new Map<Expr, Type>();
  const callees = new Map<Expr, FnDecl>();
  const declared = new Map<Stmt, Type>();
  const fieldReads = new Map<Expr, FieldRead>();
  const found = emptyFound();
  // One typer state for every unit (a large program has thousands): each unit sets its own.
  const w: StatementTyper = {
    table,
    symbols: ctx.symbols,
    types,
    fieldReads,
    found,
    seen: new Set<Stmt>(),
    callees,
    unit: ctx.units[0],
    methodsOf: (agent) => ctx.agentMethods(agent),
    declared,
    declaredNames: new Map(),
    collectors: [],
    loopDepth: 0,
    typedAssigns: 0,
    typeParallelLoop: (loop, env) => typeParallelLoop(w, loop, env),
  };
  for (const unit of ctx.units) {
    w.unit = unit;
    typeUnit(w, unit);
  }
  return { table, types, callees, declared, fieldReads, found, typeOf: (e) => types.get(e) ?? UNKNOWN };
}

/**
 * The hints under "unknown …" messages: the closest name of the right sort ("did you mean
 * `print`?", by `did-you-mean.ts`) and, for words other languages use where Luma has its
 * own (`None`, `self`, `integer`), a line that says what Luma writes instead. The words
 * come from tables, the candidates from the program's symbols, so a hint never offers a
 * name the program could not use there.
 */
import { ANNOTATIONS } from "../schema/annotations";
import type { Decl, PrimName } from "../syntax/ast";
import { BUILTINS } from "../language/builtins";
import { MODEL_CALLABLE_KINDS } from "../language/declaration-nouns";
import type { CheckContext, CodeUnit } from "./context";
import { didYouMean } from "../diagnostics/did-you-mean";

/** Expression keywords a misspelt name may have meant (`flase`, `NULL`, `AND`). */
const EXPRESSION_KEYWORDS = ["true", "false", "null", "and", "or", "not"];

/** Values and operators from other languages, and what Luma writes. */
const FOREIGN_VALUES: Readonly<Record<string, string>> = {
  None: "Luma writes null as `null`",
  nil: "Luma writes null as `null`",
  undefined: "Luma writes null as `null`",
  self: "inside an agent, call a sibling method by its bare name: `m(…)`",
  this: "inside an agent, call a sibling method by its bare name: `m(…)`",
  let: "Luma has no `let`: write `x = 1` (or `x: int = 1` to give it a type)",
  var: "Luma has no `var`: write `x = 1` (or `x: int = 1` to give it a type)",
  const: "Luma has no `const`: write `x = 1` (or `x: int = 1` to give it a type)",
};

const PRIM_TYPES: readonly PrimName[] = ["string", "int", "float", "bool", "any"];

/** Type names from other languages, and the Luma type. */
const FOREIGN_TYPES: Readonly<Record<string, PrimName>> = {
  integer: "int",
  number: "float",
  double: "float",
  boolean: "bool",
  str: "string",
  text: "string",
  object: "any",
};

const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** For `Unknown name 'x'.`: why a top-level name is not seen here, else what the unit can read. */
export function nameHints(ctx: CheckContext, unit: CodeUnit, name: string): string[] {
  const foreign = own(FOREIGN_VALUES, name);
  if (foreign) return [foreign];
  if (unit.kind !== "top" && (name === "args" || ctx.units[0].locals.has(name))) {
    return [`\`${name}\` belongs to top-level code, which a fn does not see; pass it in as a parameter`];
  }
  const candidates = [...unit.locals, ...ctx.symbols.agents.keys(), ...ctx.symbols.fns.keys(), ...Object.keys(BUILTINS)];
  if (unit.kind === "top") candidates.push("args");
  return didYouMean(name, [...candidates, ...EXPRESSION_KEYWORDS]);
}

/** For `Unknown function 'f'.`: builtins, fns and (in an agent) sibling methods. */
export function functionHints(ctx: CheckContext, unit: CodeUnit, name: string): string[] {
  const declared = ctx.symbols.byName.get(name);
  if (declared && MODEL_CALLABLE_KINDS.includes(declared.kind)) {
    const word = declared.kind === "Tool" ? "tool" : declared.kind === "Query" ? "query" : "command";
    return [`\`${name}\` is a ${word}: call it as \`${word} ${name}({…})\`, with one object of its parameters`];
  }
  const owner = [...ctx.symbols.agents.values()].find((a) => a !== unit.agent && ctx.agentMethods(a).has(name));
  if (owner) return [`\`${name}\` is a method of agent '${owner.name}': call it as \`${owner.name}.${name}(…)\``];
  const siblings = unit.agent ? [...ctx.agentMethods(unit.agent).keys()] : [];
  return didYouMean(name, [...siblings, ...ctx.symbols.fns.keys(), ...Object.keys(BUILTINS)]);
}

/** For `Unknown schema 'T'.`: declared schemas and unions, and the primitive types. */
export function typeHints(ctx: CheckContext, name: string): string[] {
  const prim = own(FOREIGN_TYPES, name.toLowerCase());
  if (prim) return [`Luma's type for this is \`${prim}\``];
  return didYouMean(name, [...ctx.symbols.schemas.keys(), ...ctx.symbols.unions.keys(), ...PRIM_TYPES]);
}

/** For an unknown declaration of some kinds (`Unknown tool`, `Unknown model`…). */
export function declHints(ctx: CheckContext, kinds: readonly Decl["kind"][], name: string): string[] {
  const names = [...ctx.symbols.byName.values()].filter((d) => kinds.includes(d.kind)).map((d) => d.name);
  return didYouMean(name, names);
}

/** For `Unknown annotation '@x'.` */
export const annotationHints = (name: string): string[] => didYouMean(`@${name}`, ANNOTATIONS.map((a) => `@${a.name}`));

/** For `Unknown key 'k' in …`: the closest key of that block. */
export const keyHints = (key: string, keys: Iterable<string>): string[] => didYouMean(key, keys);

/** For `Agent 'A' has no method 'm'.` */
export const methodHints = (ctx: CheckContext, agent: string, method: string): string[] => {
  const decl = ctx.symbols.agents.get(agent);
  return decl ? didYouMean(method, ctx.agentMethods(decl).keys()) : [];
};

/** For `Unknown agent 'A'.` in `A.m(…)`: `self.m(…)` gets its own advice, naming `m`. */
export function agentHints(ctx: CheckContext, name: string, method: string): string[] {
  if (name === "self" || name === "this") return [`inside an agent, call a sibling method by its bare name: \`${method}(…)\``];
  const foreign = own(FOREIGN_VALUES, name);
  return foreign ? [foreign] : declHints(ctx, ["Agent"], name);
}

/**
 * Flow typing: what the checker knows about each variable at one point of a body, and
 * how a condition refines it, so that correct programs need no casts:
 *
 *   if x != null { x.field }          x without null in the branch (and `x == null` in else)
 *   if u.email { len(u.email) }       a truthy test removes null too
 *   if d.kind == "Invoice" { … }      a tagged union narrows to the member its tag names
 *   if x == null { return … }         and after it, x is not null (see type-statements.ts)
 *   a != null and a.b > 1             `and` narrows its right side; `or` by the left's failure
 *
 * An environment maps variable names — and dotted paths like `u.email`, once narrowed —
 * to types. Assigning a variable forgets what was known about its paths. Environments are
 * copied at branches and joined where branches meet; a path survives a join only where
 * both sides know it.
 */
import type { Expr } from "../../syntax/ast";
import { assertNever } from "../../syntax/assert-never";
import { NULL, canBeNull, filterMembers, join, membersOf, withoutNull, type Type } from "./type-model";

export class Env {
  /**
   * Whether a dotted path may be among the keys: most environments hold only names, and
   * then an assignment has no narrowed fields to forget (no scan of every key).
   */
  private paths: boolean;

  constructor(private vars: Map<string, Type> = new Map(), paths = false) {
    this.paths = paths;
  }

  get(key: string): Type | undefined {
    return this.vars.get(key);
  }

  /** What a condition proved about a path (`u.email`); `undefined` for an expression that is not one. */
  getPath(e: Expr): Type | undefined {
    // Without a narrowed path there is nothing to find: no key string to build for each `a.b`.
    if (!this.paths) return undefined;
    const key = pathKey(e);
    return key === undefined ? undefined : this.vars.get(key);
  }

  /** `name = …`: the new type, and nothing narrowed about its fields any more. */
  assign(name: string, t: Type): void {
    this.vars.set(name, t);
    if (!this.paths) return;
    const prefix = `${name}.`;
    for (const key of this.vars.keys()) if (key.startsWith(prefix)) this.vars.delete(key);
  }

  /** A refinement a condition proved (a name or a path). */
  refine(key: string, t: Type): void {
    this.vars.set(key, t);
    if (key.includes(".")) this.paths = true;
  }

  /**
   * Take over another environment's knowledge (where branches meet). `other` is a branch's
   * or a join's environment, never used again, so its map is taken, not copied: a large
   * program's every `if` and loop ends in one adopt, and a copy costs one set per name.
   */
  adopt(other: Env): void {
    if (other === this) return;
    this.vars = other.vars;
    this.paths = other.paths;
    other.vars = new Map();
  }

  /**
   * Take over the join of `a` and `b` (as `Env.join(a, b)`), where both are branches never
   * used again: `b`'s map is joined in place and taken, so a branch that meets another
   * allocates no third map (a large program has one per `if` and loop).
   */
  adoptJoin(a: Env, b: Env): void {
    for (const [key, t] of b.vars) {
      const u = a.vars.get(key);
      if (u === undefined) b.vars.delete(key);
      else if (u !== t) b.vars.set(key, join(u, t));
    }
    b.paths = a.paths && b.paths;
    this.adopt(b);
  }

  /**
   * Whether `other` knows exactly what this environment knows (the same type objects),
   * leaving aside `except` and its paths. `other` must hold no key this one lacks (a join
   * with this one never does).
   */
  agreesWith(other: Env, except?: string): boolean {
    const prefix = except === undefined ? undefined : `${except}.`;
    for (const [key, t] of this.vars) {
      if (key === except || (prefix !== undefined && key.startsWith(prefix))) continue;
      if (other.vars.get(key) !== t) return false;
    }
    return true;
  }

  clone(): Env {
    return new Env(new Map(this.vars), this.paths);
  }

  /** Where two branches meet: each name has either branch's type. */
  static join(a: Env, b: Env): Env {
    const out = new Map<string, Type>();
    for (const [key, t] of a.vars) {
      const u = b.vars.get(key);
      if (u !== undefined) out.set(key, join(t, u));
    }
    return new Env(out, a.paths && b.paths);
  }
}

/** Where two branches meet: each name has either branch's type. */
export const joinEnvs = (a: Env, b: Env): Env => Env.join(a, b);

/** `x`, `x.a.b`: the key a narrowing is stored under; undefined for anything else. */
export function pathKey(e: Expr): string | undefined {
  if (e.kind === "Name") return e.name;
  if (e.kind === "Member") {
    const base = pathKey(e.object);
    return base === undefined ? undefined : `${base}.${e.property}`;
  }
  return undefined;
}

/**
 * The environment in which `cond` is known to be `truthy` (or falsy). The condition's
 * sub-expressions are already typed (`types`); the input environment is never changed — a
 * refined copy is returned, or the same one when nothing was learnt.
 */
export function narrow(env: Env, cond: Expr, truthy: boolean, types: ReadonlyMap<Expr, Type>): Env {
  switch (cond.kind) {
    case "Unary":
      return cond.op === "not" ? narrow(env, cond.operand, !truthy, types) : env;
    case "Binary":
      if (cond.op === "and") return truthy ? narrowChain(env, cond, "and", true, types) : env;
      if (cond.op === "or") return truthy ? env : narrowChain(env, cond, "or", false, types);
      if (cond.op === "==" || cond.op === "!=") return narrowEquality(env, cond.left, cond.right, truthy === (cond.op === "=="), types);
      return env;
    case "Name":
    case "Member":
      return truthy ? refined(env, cond, types, withoutNull) : env;
    // Nothing is learnt from the truth of these.
    case "Num":
    case "Str":
    case "Bool":
    case "Null":
    case "Array":
    case "Object":
    case "Index":
    case "Call":
    case "Lambda":
    case "ToolCall":
    case "Ask":
    case "DbCall":
    case "ParallelFor":
      return env;
    default:
      return assertNever(cond);
  }
}

/**
 * A true `a and b and …` (or a false `a or b or …`) narrows by each term in turn. The chain
 * is nested on its left, 20,000 deep for as many terms: its terms are collected with a
 * loop, not a recursion, and applied from the first.
 */
function narrowChain(env: Env, cond: Extract<Expr, { kind: "Binary" }>, op: "and" | "or", truthy: boolean, types: ReadonlyMap<Expr, Type>): Env {
  const rights: Expr[] = [];
  let node: Expr = cond;
  while (node.kind === "Binary" && node.op === op) {
    rights.push(node.right);
    node = node.left;
  }
  let out = narrow(env, node, truthy, types);
  for (let i = rights.length - 1; i >= 0; i--) out = narrow(out, rights[i], truthy, types);
  return out;
}

/**
 * `narrow`, as an environment the caller owns and may change: a refined result is already
 * a fresh copy (`refined` makes one), so only an unrefined one is copied.
 */
export function narrowedCopy(env: Env, cond: Expr, truthy: boolean, types: ReadonlyMap<Expr, Type>): Env {
  const out = narrow(env, cond, truthy, types);
  return out === env ? env.clone() : out;
}

function narrowEquality(env: Env, left: Expr, right: Expr, equal: boolean, types: ReadonlyMap<Expr, Type>): Env {
  if (right.kind === "Null" || left.kind === "Null") {
    const other = right.kind === "Null" ? left : right;
    return refined(env, other, types, (t) => (equal ? (canBeNull(t) ? NULL : t) : withoutNull(t)));
  }
  const literal = singleString(right) ?? singleString(left);
  const member = singleString(right) !== undefined ? left : right;
  if (literal === undefined || member.kind !== "Member") return env;
  const tag = member.property;
  return refined(env, member.object, types, (t) => {
    const tagged = membersOf(t).filter((m) => m.kind === "object" && m.tag === tag);
    if (tagged.length === 0) return t;
    return filterMembers(t, (m) => {
      if (m.kind !== "object" || m.tag !== tag) return true; // null and the like: not decided here
      const is = m.fields.get(tag)?.type;
      const names = is?.kind === "string" ? is.values : undefined;
      return equal ? names?.includes(literal) !== false : !(names?.length === 1 && names[0] === literal);
    });
  });
}

/** The text of a string literal without interpolation. */
function singleString(e: Expr): string | undefined {
  if (e.kind !== "Str") return undefined;
  return e.parts.every((p) => typeof p === "string") ? e.parts.join("") : undefined;
}

function refined(env: Env, e: Expr, types: ReadonlyMap<Expr, Type>, f: (t: Type) => Type): Env {
  const key = pathKey(e);
  const t = types.get(e);
  if (key === undefined || t === undefined) return env;
  const next = f(t);
  if (next === t) return env;
  const out = env.clone();
  out.refine(key, next);
  return out;
}

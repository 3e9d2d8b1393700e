/**
 * Flow typing over statements, one code unit at a time, in one forward pass:
 *  - a unit starts with its parameters typed, `args` (top level) a `string[]`, and every
 *    other name it binds `null` — a name assigned anywhere but not yet assigned reads as
 *    null at run time (spec §7, the `bonus` case);
 *  - `x = v` gives x the type of v; `x: T = v` gives it T (the runtime validates v
 *    against T) and declares x as T for the assignments that follow;
 *  - `if` types each branch in the environment its condition proves, and joins them; a
 *    branch that ends in `return` does not flow on (so `if x == null { return … }` narrows
 *    the rest of the body);
 *  - a `for` or `while` body may run any number of times: it is typed twice, the second
 *    time in the join of "before" and "after one iteration" (deep nests widen instead, to
 *    stay linear); a `while` body in what its condition proves; `break`/`continue` end
 *    their block, and every type the body assigned joins in after the loop;
 *  - `obj.f = v` / `xs[i] = v` type their target as a read (rules check the field and
 *    that v fits it) and change no variable's type;
 *  - a `catch` handler may start after any statement of its `try` body, so every type a
 *    variable took in the body joins; `e` is the error shape the runtime hands over.
 */
import type { Expr, Stmt } from "../../syntax/ast";
import type { CodeUnit } from "../context";
import { boundNames } from "../../language/walk";
import { inferExpr, type TyperState } from "./infer-expression";
import { Env, joinEnvs, narrow, narrowedCopy } from "./narrowing";
import { ANY, BOOL, NEVER, NULL, STRING, STRING_ARRAY, UNKNOWN, join, membersOf, type FieldType, type Type } from "./type-model";

/** What a `catch e` variable holds: `errorValue` in runtime/interpreter/runtime-errors.ts. */
export const CAUGHT_ERROR: Type = {
  kind: "object",
  name: "error",
  fields: new Map<string, FieldType>([
    ["code", { type: STRING, optional: false }],
    ["message", { type: STRING, optional: false }],
    ["retryable", { type: BOOL, optional: false }],
    ["details", { type: { kind: "any" }, optional: true }],
  ]),
};

/** Nested deeper than this, a loop is typed once with what it assigns widened to `unknown`. */
const MAX_LOOP_DEPTH = 3;

export interface StatementTyper extends TyperState {
  /** `x = v` after `x: T = …` in the same unit: the type x was declared with. */
  declared: Map<Stmt, Type>;
  /** Typed assignments seen so far in this unit, by name. */
  declaredNames: Map<string, Type>;
  /** Open `try` bodies: every type each variable took inside. */
  collectors: Map<string, Type>[];
  loopDepth: number;
  /** How many typed assignments were seen (a loop's pass that saw one changes the next pass). */
  typedAssigns: number;
  /** Statements already listed in `found` (loop bodies are typed twice). */
  seen: Set<Stmt>;
}

export function typeUnit(w: StatementTyper, unit: CodeUnit): void {
  const env = new Env();
  for (const name of unit.locals) env.assign(name, NULL);
  for (const p of unit.context) env.assign(p.name, w.table.ofField(p));
  for (const p of unit.params) env.assign(p.name, w.table.ofField(p));
  if (unit.kind === "top" && !unit.locals.has("args")) env.assign("args", STRING_ARRAY);
  // An eval's `case` is a line of its dataset: any JSON value, known only when the case runs.
  if (unit.kind === "eval") env.assign("case", ANY);
  w.declaredNames.clear();
  typeBlock(w, unit.body, env);
}

/** Types a block in `env` (changed in place); true when the block surely ends in `return`. */
function typeBlock(w: StatementTyper, stmts: readonly Stmt[], env: Env): boolean {
  let exits = false;
  for (const s of stmts) if (typeStmt(w, s, env)) exits = true;
  return exits;
}

function bind(w: StatementTyper, env: Env, name: string, t: Type): void {
  env.assign(name, t);
  for (const c of w.collectors) c.set(name, join(c.get(name) ?? NEVER, t));
}

/**
 * Lists a statement in `found` the first time it is typed. Only a loop body is typed more
 * than once, so only there is a statement remembered in `seen` (outside loops that set
 * would hold every statement of the program).
 */
const firstTyping = (w: StatementTyper, s: Stmt): boolean => {
  if (w.loopDepth === 0) return true;
  if (w.seen.has(s)) return false;
  w.seen.add(s);
  return true;
};

/** How one kind of statement is typed in `env`; true when it surely ends its block. */
type TypeStmt<K extends Stmt["kind"]> = (w: StatementTyper, s: Extract<Stmt, { kind: K }>, env: Env) => boolean;

/**
 * One small function per kind, called through this table rather than one switch: the
 * optimising JIT compiles a switch with every case's callees inlined as one large function,
 * tens of ms of compile time on a large program that a cold `luma check` pays; each small
 * one compiles in a fraction. Each lists its statement in `found` before typing inside it.
 */
const TYPE_STMT: { [K in Stmt["kind"]]: TypeStmt<K> } = {
  Assign: (w, s, env) => {
    if (firstTyping(w, s)) w.found.assigns.push(s);
    const value = inferExpr(w, s.value, env);
    if (s.type) {
      const declared = w.table.ofRef(s.type);
      w.declaredNames.set(s.name, declared);
      w.typedAssigns++;
      bind(w, env, s.name, declared);
    } else {
      const declared = w.declaredNames.get(s.name);
      if (declared) w.declared.set(s, declared);
      bind(w, env, s.name, value);
    }
    return false;
  },
  ExprStmt: (w, s, env) => {
    inferExpr(w, s.expr, env);
    return false;
  },
  Assert: (w, s, env) => {
    if (firstTyping(w, s)) w.found.asserts.push(s);
    inferExpr(w, s.cond, env);
    if (s.message) inferExpr(w, s.message, env);
    return false;
  },
  Score: (w, s, env) => {
    if (firstTyping(w, s)) w.found.scores.push(s);
    inferExpr(w, s.value, env);
    return false;
  },
  Return: (w, s, env) => {
    if (firstTyping(w, s)) {
      w.found.returns.push(s);
      w.found.unitOf.set(s, w.unit);
    }
    if (s.value) inferExpr(w, s.value, env);
    return true;
  },
  If: (w, s, env) => {
    if (firstTyping(w, s)) w.found.ifs.push(s);
    return typeIf(w, s, env);
  },
  For: (w, s, env) => {
    if (firstTyping(w, s)) w.found.fors.push(s);
    typeFor(w, s, env);
    return false;
  },
  While: (w, s, env) => {
    if (firstTyping(w, s)) w.found.ifs.push(s);
    typeWhile(w, s, env);
    return false;
  },
  AssignInto: (w, s, env) => {
    if (firstTyping(w, s)) w.found.intos.push(s);
    // The target is read as an expression (its field must exist, its object not be null);
    // what it holds keeps its type: a write that fits the field changes no type.
    inferExpr(w, s.target, env);
    inferExpr(w, s.value, env);
    return false;
  },
  // The rest of the block does not run; where the loop goes on, `loopTypes` has every
  // type the body assigned.
  Break: () => true,
  Continue: () => true,
  Try: (w, s, env) => typeTry(w, s, env),
  // Branches assign distinct names and read none another assigns (E1201, E1202): typed in order.
  Parallel: (w, s, env) => {
    typeBlock(w, s.body, env);
    return false;
  },
};

const typeStmt = (w: StatementTyper, s: Stmt, env: Env): boolean => (TYPE_STMT[s.kind] as TypeStmt<Stmt["kind"]>)(w, s, env);

function typeIf(w: StatementTyper, s: Extract<Stmt, { kind: "If" }>, env: Env): boolean {
  inferExpr(w, s.cond, env);
  const thenEnv = narrowedCopy(env, s.cond, true, w.types);
  // Without an else branch nothing writes to it: no copy needed.
  const elseEnv = s.else ? narrowedCopy(env, s.cond, false, w.types) : narrow(env, s.cond, false, w.types);
  const thenExits = typeBlock(w, s.then, thenEnv);
  const elseExits = s.else ? typeBlock(w, s.else, elseEnv) : false;
  if (thenExits && !elseExits) env.adopt(elseEnv);
  else if (elseExits && !thenExits) env.adopt(thenEnv);
  else env.adoptJoin(thenEnv, elseEnv);
  return thenExits && elseExits;
}

/** What `for x in v` binds x to. */
export function elementType(t: Type): Type {
  let el: Type = NEVER;
  for (const m of membersOf(t)) {
    if (m.kind === "array") el = join(el, m.element);
    else if (m.kind === "any" || m.kind === "unknown") el = join(el, UNKNOWN);
  }
  return el.kind === "never" ? UNKNOWN : el;
}

/**
 * Types a loop's body passes (`passes`) with every type the body assigns collected, then
 * joins those into `env`: a `break` or `continue` leaves the body from any point, so after
 * the loop (and at its next turn) a variable may hold any type the body gave it.
 */
function loopTypes(w: StatementTyper, env: Env, passes: () => void): void {
  const seen = new Map<string, Type>();
  w.collectors.push(seen);
  w.loopDepth++;
  passes();
  w.loopDepth--;
  w.collectors.pop();
  for (const [name, t] of seen) bind(w, env, name, join(env.get(name) ?? NULL, t));
}

function typeWhile(w: StatementTyper, s: Extract<Stmt, { kind: "While" }>, env: Env): void {
  inferExpr(w, s.cond, env);
  loopTypes(w, env, () => {
    if (w.loopDepth > MAX_LOOP_DEPTH) {
      for (const name of boundNames(s.body)) bind(w, env, name, UNKNOWN);
      typeBlock(w, s.body, narrowedCopy(env, s.cond, true, w.types));
      return;
    }
    const typedAssigns = w.typedAssigns;
    const first = narrowedCopy(env, s.cond, true, w.types);
    typeBlock(w, s.body, first);
    const looped = joinEnvs(env, first);
    if (secondPassRepeatsFirst(w, typedAssigns, env, looped)) return env.adoptJoin(looped, first);
    inferExpr(w, s.cond, looped);
    const second = narrowedCopy(looped, s.cond, true, w.types);
    typeBlock(w, s.body, second);
    env.adoptJoin(looped, second);
  });
}

/**
 * Whether a loop body's second pass would start where its first did, and so type every
 * node as the first did: the first pass changed no variable's type (the loop's own
 * variable aside, which each pass binds afresh) and declared no variable. Then it is not
 * run — a nest of loops would otherwise type its innermost body 2^depth times.
 */
function secondPassRepeatsFirst(w: StatementTyper, typedAssignsBefore: number, before: Env, looped: Env, loopVar?: string): boolean {
  return w.typedAssigns === typedAssignsBefore && before.agreesWith(looped, loopVar);
}

function typeFor(w: StatementTyper, s: Extract<Stmt, { kind: "For" }>, env: Env): void {
  const el = elementType(inferExpr(w, s.iterable, env));
  loopTypes(w, env, () => forPasses(w, s, env, el));
}

function forPasses(w: StatementTyper, s: Extract<Stmt, { kind: "For" }>, env: Env, el: Type): void {
  if (w.loopDepth > MAX_LOOP_DEPTH) {
    for (const name of boundNames(s.body)) bind(w, env, name, UNKNOWN);
    const body = env.clone();
    bind(w, body, s.name, el);
    typeBlock(w, s.body, body);
    bind(w, env, s.name, join(env.get(s.name) ?? NULL, el));
  } else {
    const typedAssigns = w.typedAssigns;
    const first = env.clone();
    bind(w, first, s.name, el);
    typeBlock(w, s.body, first);
    const looped = joinEnvs(env, first);
    if (secondPassRepeatsFirst(w, typedAssigns, env, looped, s.name)) return env.adoptJoin(looped, first);
    const second = looped.clone();
    bind(w, second, s.name, el);
    typeBlock(w, s.body, second);
    env.adoptJoin(looped, second);
  }
}

/**
 * A `parallel for`'s loop: each branch starts from `env` with its own variables (the run
 * gives each branch a copy; what it assigns is seen neither by the others nor after), so
 * the body is typed once in a copy and `env` keeps its types. The value's element is the
 * join of the body's tails (a block's value is its last expression, as in a `fn`).
 */
export function typeParallelLoop(w: StatementTyper, loop: Extract<Stmt, { kind: "For" }>, env: Env): Type {
  if (firstTyping(w, loop)) w.found.fors.push(loop);
  const el = elementType(inferExpr(w, loop.iterable, env));
  const branch = env.clone();
  bind(w, branch, loop.name, el);
  typeBlock(w, loop.body, branch);
  const last = loop.body[loop.body.length - 1];
  if (last?.kind !== "ExprStmt" && last?.kind !== "If" && last?.kind !== "Try") return NULL;
  const tails = tailExprs(loop.body);
  let t: Type = NEVER;
  for (const tail of tails) t = join(t, w.types.get(tail) ?? UNKNOWN);
  return t.kind === "never" ? UNKNOWN : t;
}

function typeTry(w: StatementTyper, s: Extract<Stmt, { kind: "Try" }>, env: Env): boolean {
  const seen = new Map<string, Type>();
  w.collectors.push(seen);
  const body = env.clone();
  const bodyExits = typeBlock(w, s.body, body);
  w.collectors.pop();
  const handler = env.clone();
  for (const [name, t] of seen) bind(w, handler, name, join(handler.get(name) ?? NULL, t));
  bind(w, handler, s.errName, CAUGHT_ERROR);
  const handlerExits = typeBlock(w, s.handler, handler);
  if (bodyExits && !handlerExits) env.adopt(handler);
  else if (handlerExits && !bodyExits) env.adopt(body);
  else env.adoptJoin(body, handler);
  return bodyExits && handlerExits;
}

/** The expressions whose value a block yields when it ends without `return` (its tail). */
export function tailExprs(stmts: readonly Stmt[], out: Expr[] = []): Expr[] {
  const last = stmts[stmts.length - 1];
  if (!last) return out;
  if (last.kind === "ExprStmt") out.push(last.expr);
  else if (last.kind === "If") {
    tailExprs(last.then, out);
    if (last.else) tailExprs(last.else, out);
  } else if (last.kind === "Try") {
    tailExprs(last.body, out);
    tailExprs(last.handler, out);
  }
  return out;
}

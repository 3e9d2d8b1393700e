/**
 * Name resolution, done once per program (spec §7): what every `Name` in code refers to,
 * and which names each code unit binds. The checker (unknown names, calls, function
 * values, each unit's locals), the language server (definition, references, rename,
 * completion) and the runtime (a frame's not-yet-assigned variables, builtin-or-user
 * calls, the words of a bad read) all read this one table, so they cannot disagree.
 *
 * The rules. A code unit is top-level code, a top-level `fn`, an agent method or a `test`
 * block; each has its own variables (function-scoped: blocks open no scope), bound by an
 * assignment, a `for` or a `catch` anywhere in the unit, so a name assigned later reads as
 * `null` until then. Top-level fns, methods and tests do not see top-level variables.
 * A name read as a value is, in this order: a parameter, a variable of the unit, `args`
 * (top-level code only), an agent, a top-level fn, a builtin, a method of the enclosing
 * agent, another declaration (a schema, tool…: no value; the checker rejects the read), or
 * nothing. A name called, `f(…)`, is a method of the enclosing agent, else a top-level fn,
 * else a builtin (user functions shadow builtins; a variable never does); the `A` of
 * `A.m(…)` is an agent first. When neither fits, the value reading is kept, so the checker
 * can tell "not callable" (a variable) from "unknown function".
 *
 * Which names are parameters of a unit is decided in one place, `paramsOf`.
 */
import type { AgentDecl, Decl, Expr, Field, FnDecl, Program, Stmt, TestDecl } from "../syntax/ast";
import { boundNameOf, nestedBlocks } from "./ast-children";
import { isBuiltin, type BuiltinName } from "./builtins";
import { exprsOf, flattenBody, forEachInExpr, type FlatBody } from "./walk";

export type NameExpr = Extract<Expr, { kind: "Name" }>;
/** A statement that binds a variable: an assignment, a `for`, a `try` (its `catch` name). */
export type Binding = Extract<Stmt, { kind: "Assign" | "For" | "Try" }>;

/** What a name refers to. */
export type NameTarget =
  | { kind: "param"; field: Field }
  | { kind: "variable"; name: string; binding: Binding }
  | { kind: "args" }
  | { kind: "agent"; decl: AgentDecl }
  | { kind: "fn"; decl: FnDecl }
  /** A method of the agent whose method holds the name. */
  | { kind: "method"; agent: AgentDecl; decl: FnDecl }
  | { kind: "builtin"; name: BuiltinName }
  /** A declaration that is no value and cannot be called by name (a schema, a tool, a model…). */
  | { kind: "declaration"; decl: Decl }
  | { kind: "unknown" };

/** The targets a name may read in code without an unknown-name error (a method is called, never read). */
const IN_SCOPE: ReadonlySet<NameTarget["kind"]> = new Set(["param", "variable", "args", "agent", "fn", "builtin"]);
export const isInScope = (target: NameTarget): boolean => IN_SCOPE.has(target.kind);

/** A body of code with its own variables. */
export interface ResolvedUnit {
  /** "test": a `test` block's body (it sees the declarations, not the top-level variables). */
  kind: "top" | "fn" | "method" | "test";
  /** The fn or method; absent for top-level code and tests. */
  fn?: FnDecl;
  /** The agent owning a method. */
  agent?: AgentDecl;
  test?: TestDecl;
  /** The names in scope as parameters (`paramsOf`). */
  params: readonly Field[];
  body: readonly Stmt[];
  /** The body listed once by kind (`walk.ts`): what rules read instead of walking the tree. */
  flat: FlatBody;
  /**
   * The variables the unit binds (parameters excluded), each with its first binding in
   * source order — a `catch` name binds after its `try` body, before its handler.
   */
  variables: ReadonlyMap<string, Binding>;
  /** Parameters and variables by name. */
  locals: ReadonlySet<string>;
}

export interface NameResolution {
  /** Top-level code first, then fns and agent methods in declaration order, then tests. */
  units: readonly ResolvedUnit[];
  /** The unit whose body is `body` (the very array of the AST). */
  unitOf(body: readonly Stmt[]): ResolvedUnit | undefined;
  /** What a Name of this program's code refers to (undefined: not a Name of this program). */
  targetOf(name: NameExpr): NameTarget | undefined;
  /** Whether a Name is the `f` of `f(…)` or the `A` of `A.m(…)`: resolved as a call, not read. */
  isCallee(name: NameExpr): boolean;
}

/**
 * The parameters in scope in a unit: a fn's or a method's own. The one place that decides
 * it — agent parameters, in scope in every method, join a method's list here.
 */
function paramsOf(fn: FnDecl | undefined, _agent: AgentDecl | undefined): readonly Field[] {
  return fn ? fn.params : [];
}

const UNKNOWN: NameTarget = { kind: "unknown" };
const ARGS: NameTarget = { kind: "args" };

const cache = new WeakMap<Program, NameResolution>();

/** The program's resolution, computed on first use and kept as long as the program. */
export function resolutionOf(program: Program): NameResolution {
  let r = cache.get(program);
  if (!r) {
    r = resolve(program);
    cache.set(program, r);
  }
  return r;
}

function resolve(program: Program): NameResolution {
  // All declarations share one namespace; the first of a name wins (as the checker's symbols).
  const byName = new Map<string, Decl>();
  for (const d of program.decls) if (!byName.has(d.name)) byName.set(d.name, d);
  const methodTables = new Map<AgentDecl, Map<string, FnDecl>>();
  const methodsOf = (agent: AgentDecl) => {
    let table = methodTables.get(agent);
    if (!table) {
      table = new Map();
      for (const m of agent.methods) if (!table.has(m.name)) table.set(m.name, m);
      methodTables.set(agent, table);
    }
    return table;
  };
  const declTargets = new Map<string, NameTarget>();
  /** What a name means outside any unit's own scope (agents, fns, builtins, declarations), shared by all units. */
  const declared = (name: string): NameTarget => {
    let t = declTargets.get(name);
    if (t === undefined) {
      const decl = byName.get(name);
      if (decl?.kind === "Agent") t = { kind: "agent", decl };
      else if (decl?.kind === "Fn") t = { kind: "fn", decl };
      else if (isBuiltin(name)) t = { kind: "builtin", name };
      else if (decl) t = { kind: "declaration", decl };
      else t = UNKNOWN;
      declTargets.set(name, t);
    }
    return t;
  };

  const targets = new Map<NameExpr, NameTarget>();
  const callees = new Set<NameExpr>();
  const units: ResolvedUnit[] = [];
  const byBody = new Map<readonly Stmt[], ResolvedUnit>();

  const unit = (kind: ResolvedUnit["kind"], body: readonly Stmt[], owner: { fn?: FnDecl; agent?: AgentDecl; test?: TestDecl }, extra: readonly Expr[] = []) => {
    const params = paramsOf(owner.fn, owner.agent);
    const paramByName = new Map<string, Field>();
    for (const p of params) if (!paramByName.has(p.name)) paramByName.set(p.name, p);
    const variables = variablesOf(body, paramByName);
    const locals = new Set<string>(variables.keys());
    for (const p of params) locals.add(p.name);
    const flat = flattenBody(body);
    const u: ResolvedUnit = { kind, ...owner, params, body, flat, variables, locals };
    units.push(u);
    byBody.set(body, u);

    const own = owner.agent && methodsOf(owner.agent);
    const readTargets = new Map<string, NameTarget>();
    const read = (name: string): NameTarget => {
      let t = readTargets.get(name);
      if (t === undefined) {
        const field = paramByName.get(name);
        const binding = variables.get(name);
        const method = own?.get(name);
        const outside = declared(name);
        if (field) t = { kind: "param", field };
        else if (binding) t = { kind: "variable", name, binding };
        else if (kind === "top" && name === "args") t = ARGS;
        else if (outside.kind !== "declaration" && outside.kind !== "unknown") t = outside;
        else if (method && owner.agent) t = { kind: "method", agent: owner.agent, decl: method };
        else t = outside;
        readTargets.set(name, t);
      }
      return t;
    };
    const readAll = (e: Expr) => {
      if (e.kind === "Name") targets.set(e, read(e.name));
    };
    for (const e of exprsOf(flat, "Name")) targets.set(e, read(e.name));
    for (const e of extra) forEachInExpr(e, readAll);
    for (const { callee } of exprsOf(flat, "Call")) {
      if (callee.kind === "Name") {
        const method = own?.get(callee.name);
        const outside = declared(callee.name);
        callees.add(callee);
        if (method && owner.agent) targets.set(callee, { kind: "method", agent: owner.agent, decl: method });
        else if (outside.kind === "fn" || outside.kind === "builtin") targets.set(callee, outside);
      } else if (callee.kind === "Member" && callee.object.kind === "Name") {
        callees.add(callee.object);
        const outside = declared(callee.object.name);
        if (outside.kind === "agent") targets.set(callee.object, outside);
      }
    }
  };

  unit("top", program.body, {});
  for (const decl of program.decls) {
    if (decl.kind === "Fn") unit("fn", decl.body, { fn: decl });
    if (decl.kind === "Agent") for (const m of decl.methods) unit("method", m.body, { fn: m, agent: decl });
  }
  // A test's mock turns are expressions of the test too.
  for (const test of program.tests ?? []) unit("test", test.body, { test }, test.mocks.map((m) => m.turns));

  return {
    units,
    unitOf: (body) => byBody.get(body),
    targetOf: (name) => targets.get(name),
    isCallee: (name) => callees.has(name),
  };
}

/**
 * The variables a body binds, each at its first binding in source order: statements in
 * order, a block's statements where the block is, a `catch` name after its `try` body.
 * An explicit work list (a thunk-free marker for the `catch` binding), no recursion.
 */
function variablesOf(body: readonly Stmt[], params: ReadonlyMap<string, Field>): Map<string, Binding> {
  const variables = new Map<string, Binding>();
  const bind = (name: string, s: Binding) => {
    if (!variables.has(name) && !params.has(name)) variables.set(name, s);
  };
  type Pending = Stmt | { catchOf: Extract<Stmt, { kind: "Try" }> };
  const pending: Pending[] = [];
  const queue = (stmts: readonly Stmt[]) => {
    for (let i = stmts.length - 1; i >= 0; i--) pending.push(stmts[i]);
  };
  queue(body);
  while (pending.length > 0) {
    const s = pending.pop() as Pending;
    if ("catchOf" in s) {
      bind(s.catchOf.errName, s.catchOf);
      continue;
    }
    if (s.kind === "Try") {
      queue(s.handler);
      pending.push({ catchOf: s });
      queue(s.body);
      continue;
    }
    const name = boundNameOf(s);
    if (name !== undefined) bind(name, s as Binding);
    const blocks = nestedBlocks(s);
    for (let b = blocks.length - 1; b >= 0; b--) queue(blocks[b]);
  }
  return variables;
}

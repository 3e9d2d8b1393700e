/**
 * Name resolution, done once per program (spec §7): what every `Name` in code refers to,
 * and which names each code unit binds. The checker (unknown names, calls, function
 * values, each unit's locals), the language server (definition, references, rename,
 * completion) and the runtime (a frame's not-yet-assigned variables, builtin-or-user
 * calls, the words of a bad read) all read this one table, so they cannot disagree.
 *
 * The rules. A code unit is top-level code, a top-level `fn`, an agent method, a `test`
 * block or an `eval` block; each has its own variables (function-scoped: blocks open no scope), bound by an
 * assignment, a `for` or a `catch` anywhere in the unit, so a name assigned later reads as
 * `null` until then. Top-level fns, methods, tests and evals do not see top-level variables.
 * A name read as a value is, in this order: a parameter, a variable of the unit, `args`
 * (top-level code only), `case` (an eval's block only: the dataset line it runs), an agent, a top-level fn, a builtin, a method of the enclosing
 * agent, another declaration (a schema, tool…: no value; the checker rejects the read), or
 * nothing. A name called, `f(…)`, is a method of the enclosing agent, else a top-level fn,
 * else a builtin (user functions shadow builtins; a variable never does); the `A` of
 * `A.m(…)` is an agent first. When neither fits, the value reading is kept, so the checker
 * can tell "not callable" (a variable) from "unknown function".
 *
 * A lambda `(x) => e` (only an argument of a builtin that takes one) binds `x` in `e` alone,
 * over any other meaning of `x`; the rest of `e` reads the unit's names as its body would.
 *
 * Which names are parameters of a unit is decided in one place, `paramsOf`.
 */
import type { AgentDecl, Decl, EvalDecl, Expr, Field, FnDecl, Program, Stmt, TestDecl } from "../syntax/ast";
import { boundNameOf, nestedBlocks } from "./ast-children";
import { isBuiltin, type BuiltinName } from "./builtins";
import { exprsOf, flattenBody, forEachInExpr, type FlatBody } from "./walk";
import { agentToolArgumentsOf, toolConditionsOf } from "./agent-context";

export type NameExpr = Extract<Expr, { kind: "Name" }>;
export type LambdaExpr = Extract<Expr, { kind: "Lambda" }>;
/** A statement that binds a variable: an assignment, a `for`, a `try` (its `catch` name). */
export type Binding = Extract<Stmt, { kind: "Assign" | "For" | "Try" }>;

/** What a name refers to. */
export type NameTarget =
  | { kind: "param"; field: Field }
  /** The parameter of the lambda `(x) => …` whose body holds the name (the innermost of that name). */
  | { kind: "lambdaParam"; lambda: LambdaExpr }
  | { kind: "variable"; name: string; binding: Binding }
  | { kind: "args" }
  /** `case` in an `eval` block: the dataset line the block runs for (`luma eval`). */
  | { kind: "case"; eval: EvalDecl }
  | { kind: "agent"; decl: AgentDecl }
  | { kind: "fn"; decl: FnDecl }
  /** A method of the agent whose method holds the name. */
  | { kind: "method"; agent: AgentDecl; decl: FnDecl }
  | { kind: "builtin"; name: BuiltinName }
  /** A declaration that is no value and cannot be called by name (a schema, a tool, a model…). */
  | { kind: "declaration"; decl: Decl }
  | { kind: "unknown" };

/** The targets a name may read in code without an unknown-name error (a method is called, never read). */
const IN_SCOPE: ReadonlySet<NameTarget["kind"]> = new Set(["param", "lambdaParam", "variable", "args", "case", "agent", "fn", "builtin"]);
export const isInScope = (target: NameTarget): boolean => IN_SCOPE.has(target.kind);

/** A body of code with its own variables, and what names mean in it. */
export interface ResolvedUnit {
  /**
   * "test": a `test` block's body (it sees the declarations, not the top-level variables).
   * "eval": an `eval` block's body (as a test's, and `case`).
   * "when": an agent's `tools: [t when COND]` conditions and `tools: [Other(args).m]`
   * arguments, one expression statement each.
   */
  kind: "top" | "fn" | "method" | "test" | "eval" | "when";
  /** The fn or method; absent for top-level code and tests. */
  fn?: FnDecl;
  /** The agent owning a method. */
  agent?: AgentDecl;
  test?: TestDecl;
  eval?: EvalDecl;
  /** The unit's own parameters (a fn's, a method's). */
  params: readonly Field[];
  /** The agent's parameters (`agent Name(p: T)`), in scope read-only: a method's and a "when" unit's; [] elsewhere. */
  context: readonly Field[];
  body: readonly Stmt[];
  /** The body listed once by kind (`walk.ts`), made on first use: what rules read instead of walking the tree. */
  readonly flat: FlatBody;
  /**
   * The variables the unit binds (parameters excluded), each with its first binding in
   * source order — a `catch` name binds after its `try` body, before its handler.
   */
  variables: ReadonlyMap<string, Binding>;
  /** Parameters and variables by name. */
  locals: ReadonlySet<string>;
  /** What `name` means read as a value here (outside any lambda: see `readName`). */
  read(name: string): NameTarget;
  /** What this Name of the unit means read as a value: a lambda's parameter inside its body, else `read(name)`. */
  readName(name: NameExpr): NameTarget;
  /** What `name(…)` calls here; the value reading when nothing callable has the name. */
  call(name: string): NameTarget;
  /** What the `A` of `A.m(…)` is here: an agent, else the value reading. */
  callObject(name: string): NameTarget;
  /** Whether one of this unit's Names is the `f` of `f(…)` or the `A` of `A.m(…)` (resolved as a call, not read). */
  isCallee(name: NameExpr): boolean;
}

export interface NameResolution {
  /** Top-level code first, then fns and agent methods in declaration order, then tests, then evals. */
  units: readonly ResolvedUnit[];
  /** The unit whose body is `body` (the very array of the AST). */
  unitOf(body: readonly Stmt[]): ResolvedUnit | undefined;
  /**
   * What a Name of this program's code refers to, by its role (read or called); undefined:
   * not a Name of this program. The table of every Name is made on first use.
   */
  targetOf(name: NameExpr): NameTarget | undefined;
  /** Whether the callee `f` of a call `f(…)` of this program is a builtin (no user function shadows it there). */
  callsBuiltin(callee: NameExpr): boolean;
}

/**
 * The parameters in scope in a unit: the agent's (`agent Name(p: T)`, read-only, in every
 * method and in the `when` conditions), then a fn's or a method's own. The one place that
 * decides it.
 */
function paramsOf(kind: ResolvedUnit["kind"], fn: FnDecl | undefined, agent: AgentDecl | undefined): { own: readonly Field[]; context: readonly Field[] } {
  const context = (kind === "method" || kind === "when") && agent?.params ? agent.params : [];
  return { own: fn ? fn.params : [], context };
}

const UNKNOWN: NameTarget = { kind: "unknown" };
const NO_PARAMS: ReadonlyMap<string, Field> = new Map();
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

/** What the program declares, shared by its units: names outside any unit's own scope. */
class Declared {
  /** All declarations share one namespace; the first of a name wins (as the checker's symbols). */
  readonly byName = new Map<string, Decl>();
  /** Every agent's method names: only a builtin's name among them needs the unit to tell a call. */
  readonly methodNames = new Set<string>();
  private readonly targets = new Map<string, NameTarget>();
  private readonly methodTables = new Map<AgentDecl, Map<string, FnDecl>>();

  constructor(program: Program) {
    for (const d of program.decls) {
      if (!this.byName.has(d.name)) this.byName.set(d.name, d);
      if (d.kind === "Agent") for (const m of d.methods) this.methodNames.add(m.name);
    }
  }

  /** An agent, a top-level fn, a builtin, another declaration, or nothing — in that order. */
  target(name: string): NameTarget {
    let t = this.targets.get(name);
    if (t === undefined) {
      const decl = this.byName.get(name);
      if (decl?.kind === "Agent") t = { kind: "agent", decl };
      else if (decl?.kind === "Fn") t = { kind: "fn", decl };
      else if (isBuiltin(name)) t = { kind: "builtin", name };
      else if (decl) t = { kind: "declaration", decl };
      else t = UNKNOWN;
      this.targets.set(name, t);
    }
    return t;
  }

  /** An agent's methods by name (the first, if repeated). */
  methodsOf(agent: AgentDecl): Map<string, FnDecl> {
    let table = this.methodTables.get(agent);
    if (!table) {
      table = new Map();
      for (const m of agent.methods) if (!table.has(m.name)) table.set(m.name, m);
      this.methodTables.set(agent, table);
    }
    return table;
  }
}

type Owner = { fn?: FnDecl; agent?: AgentDecl; test?: TestDecl; eval?: EvalDecl };

class Unit implements ResolvedUnit {
  readonly fn?: FnDecl;
  readonly agent?: AgentDecl;
  readonly test?: TestDecl;
  readonly eval?: EvalDecl;
  private readonly caseTarget?: NameTarget;
  readonly params: readonly Field[];
  readonly context: readonly Field[];
  readonly variables: ReadonlyMap<string, Binding>;
  readonly locals: ReadonlySet<string>;
  private readonly paramByName: ReadonlyMap<string, Field>;
  /** The answers of `read` and `call` by name, made on first use (many units read few names). */
  private reads?: Map<string, NameTarget>;
  private calls?: Map<string, NameTarget>;
  private flatBody?: FlatBody;
  private callees?: Set<NameExpr>;
  private lambdaBound?: Map<NameExpr, NameTarget>;

  constructor(
    private readonly declared: Declared,
    readonly kind: ResolvedUnit["kind"],
    readonly body: readonly Stmt[],
    owner: Owner,
    /** Expressions of the unit outside its body: a test's mock turns. */
    readonly extra: readonly Expr[] = [],
  ) {
    this.fn = owner.fn;
    this.agent = owner.agent;
    this.test = owner.test;
    this.eval = owner.eval;
    if (owner.eval) this.caseTarget = { kind: "case", eval: owner.eval };
    const { own, context } = paramsOf(kind, owner.fn, owner.agent);
    this.params = own;
    this.context = context;
    const all = context.length === 0 ? own : [...context, ...own];
    const paramByName = all.length === 0 ? NO_PARAMS : new Map<string, Field>();
    for (const p of all) if (!paramByName.has(p.name)) (paramByName as Map<string, Field>).set(p.name, p);
    this.paramByName = paramByName;
    this.variables = variablesOf(body, paramByName);
    const locals = new Set<string>(this.variables.keys());
    for (const p of all) locals.add(p.name);
    this.locals = locals;
  }

  get flat(): FlatBody {
    return (this.flatBody ??= flattenBody(this.body));
  }

  read(name: string): NameTarget {
    let t = (this.reads ??= new Map()).get(name);
    if (t === undefined) {
      const field = this.paramByName.get(name);
      const binding = this.variables.get(name);
      const outside = this.declared.target(name);
      const method = this.agent && this.declared.methodsOf(this.agent).get(name);
      if (field) t = { kind: "param", field };
      else if (binding) t = { kind: "variable", name, binding };
      else if (this.kind === "top" && name === "args") t = ARGS;
      else if (this.caseTarget && name === "case") t = this.caseTarget;
      else if (outside.kind !== "declaration" && outside.kind !== "unknown") t = outside;
      else if (method && this.agent) t = { kind: "method", agent: this.agent, decl: method };
      else t = outside;
      this.reads.set(name, t);
    }
    return t;
  }

  readName(name: NameExpr): NameTarget {
    return this.lambdaParams().get(name) ?? this.read(name.name);
  }

  /**
   * The Names that read a lambda's parameter: each lambda's body, outer lambdas first, so a
   * nested lambda of the same parameter name takes its own body's Names over.
   */
  private lambdaParams(): Map<NameExpr, NameTarget> {
    if (!this.lambdaBound) {
      this.lambdaBound = new Map();
      const lambdas = [...exprsOf(this.flat, "Lambda")];
      for (const e of this.extra) forEachInExpr(e, (x) => void (x.kind === "Lambda" && lambdas.push(x)));
      lambdas.sort((a, b) => a.span.start - b.span.start);
      for (const lambda of lambdas) {
        const target: NameTarget = { kind: "lambdaParam", lambda };
        forEachInExpr(lambda.body, (x) => void (x.kind === "Name" && x.name === lambda.param && this.lambdaBound!.set(x, target)));
      }
    }
    return this.lambdaBound;
  }

  call(name: string): NameTarget {
    let t = (this.calls ??= new Map()).get(name);
    if (t === undefined) {
      const method = this.agent && this.declared.methodsOf(this.agent).get(name);
      const outside = this.declared.target(name);
      if (method && this.agent) t = { kind: "method", agent: this.agent, decl: method };
      else if (outside.kind === "fn" || outside.kind === "builtin") t = outside;
      else if (isBuiltin(name)) t = { kind: "builtin", name };
      else t = this.read(name);
      this.calls.set(name, t);
    }
    return t;
  }

  callObject(name: string): NameTarget {
    const outside = this.declared.target(name);
    return outside.kind === "agent" ? outside : this.read(name);
  }

  isCallee(name: NameExpr): boolean {
    if (!this.callees) {
      this.callees = new Set();
      for (const { callee } of exprsOf(this.flat, "Call")) {
        if (callee.kind === "Name") this.callees.add(callee);
        if (callee.kind === "Member" && callee.object.kind === "Name") this.callees.add(callee.object);
      }
    }
    return this.callees.has(name);
  }

  /** Adds every Name of the unit with its target, by its role. */
  addTargets(table: Map<NameExpr, NameTarget>): void {
    for (const e of exprsOf(this.flat, "Name")) table.set(e, this.readName(e));
    for (const e of this.extra) forEachInExpr(e, (x) => void (x.kind === "Name" && table.set(x, this.readName(x))));
    for (const { callee } of exprsOf(this.flat, "Call")) {
      if (callee.kind === "Name") table.set(callee, this.call(callee.name));
      if (callee.kind === "Member" && callee.object.kind === "Name") table.set(callee.object, this.callObject(callee.object.name));
    }
  }
}

function resolve(program: Program): NameResolution {
  const declared = new Declared(program);
  const units: Unit[] = [new Unit(declared, "top", program.body, {})];
  for (const decl of program.decls) {
    if (decl.kind === "Fn") units.push(new Unit(declared, "fn", decl.body, { fn: decl }));
    if (decl.kind !== "Agent") continue;
    for (const m of decl.methods) units.push(new Unit(declared, "method", m.body, { fn: m, agent: decl }));
    // The tools' `when` conditions (issue #25) and `Other(args).m` arguments (issue #27) read the agent's parameters: a unit of their own.
    const exprs = [...toolConditionsOf(decl).map((c) => c.when), ...agentToolArgumentsOf(decl).flatMap((a) => a.args)];
    if (exprs.length > 0) units.push(new Unit(declared, "when", exprs.map((e): Stmt => ({ kind: "ExprStmt", expr: e, span: e.span })), { agent: decl }));
  }
  // A test's mock turns and tool stubs' answers are expressions of the test too.
  for (const test of program.tests ?? []) {
    const extra = [...test.mocks.map((m) => m.turns), ...(test.stubs ?? []).map((m) => m.answers)];
    units.push(new Unit(declared, "test", test.body, { test }, extra));
  }
  for (const evalDecl of program.evals ?? []) units.push(new Unit(declared, "eval", evalDecl.body, { eval: evalDecl }));
  const byBody = new Map<readonly Stmt[], Unit>();
  for (const u of units) byBody.set(u.body, u);

  let table: Map<NameExpr, NameTarget> | undefined;
  const targetOf = (name: NameExpr) => {
    if (!table) {
      table = new Map();
      for (const u of units) u.addTargets(table);
    }
    return table.get(name);
  };
  return {
    units,
    unitOf: (body) => byBody.get(body),
    targetOf,
    callsBuiltin(callee) {
      const name = callee.name;
      if (!isBuiltin(name) || declared.byName.get(name)?.kind === "Fn") return false;
      // Only a method of the calling agent can shadow it: that needs the unit of the call.
      return !declared.methodNames.has(name) || targetOf(callee)?.kind === "builtin";
    },
  };
}

/**
 * The variables a body binds, each at its first binding in source order: statements in
 * order, a block's statements where the block is, a `catch` name after its `try` body.
 * An explicit work list, no recursion; a `null` on it says the `try` under it binds its
 * `catch` name now.
 */
function variablesOf(body: readonly Stmt[], params: ReadonlyMap<string, Field>): Map<string, Binding> {
  const variables = new Map<string, Binding>();
  const pending: (Stmt | null)[] = [];
  for (let i = body.length - 1; i >= 0; i--) pending.push(body[i]);
  while (pending.length > 0) {
    let s = pending.pop() as Stmt | null;
    let name: string | undefined;
    if (s === null) {
      s = pending.pop() as Extract<Stmt, { kind: "Try" }>;
      name = s.errName;
    } else if (s.kind === "Try") {
      for (let i = s.handler.length - 1; i >= 0; i--) pending.push(s.handler[i]);
      pending.push(s, null);
      for (let i = s.body.length - 1; i >= 0; i--) pending.push(s.body[i]);
      continue;
    } else {
      name = boundNameOf(s);
      const blocks = nestedBlocks(s);
      for (let b = blocks.length - 1; b >= 0; b--) for (let i = blocks[b].length - 1; i >= 0; i--) pending.push(blocks[b][i]);
    }
    if (name !== undefined && !variables.has(name) && !params.has(name)) variables.set(name, s as Binding);
  }
  return variables;
}

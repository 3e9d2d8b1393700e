/**
 * The type of every expression, computed bottom-up in one pass and recorded in
 * `state.types` (so the rules, and later the editor's hover, read it back by node).
 *
 * What each form is (spec §7, and the runtime's operators):
 *  - literals as written (a string without interpolation is its own literal type, so
 *    `"add"` fits `enum["add", …]`); arrays and objects structurally;
 *  - names from the flow environment; `a.b` by `field-access.ts`, or what a condition
 *    proved about that path; `xs[i]` the element type (out of range reads null, which the
 *    checker does not track — as TypeScript does not);
 *  - calls: a sibling method, a top-level fn or `Agent.m(…)` return their declared type;
 *    builtins their signature's; `tool` the tool's return schema; `ask … -> T` T;
 *    `query` its rows (`T[]`, or `T | null` for a single row); `command` its schema;
 *  - `+`: two numbers add, a string on either side concatenates, two arrays concatenate;
 *    `- * %` numbers; `/` a float; comparisons and `and`/`or`/`not` a bool.
 * Anything the checker cannot tell is `unknown`, which every rule accepts.
 */
import type { Expr, FnDecl, Stmt } from "../../syntax/ast";
import { assertNever } from "../../syntax/assert-never";
import type { CodeUnit } from "../context";
import type { Symbols } from "../symbols";
import { canBe } from "./assignability";
import { builtinReturn, builtinSignature, elementOf } from "./builtin-signatures";
import { takesLambda } from "../../language/builtins";
import { readFieldType, type FieldRead } from "./field-access";
import { narrow, type Env } from "./narrowing";
import type { TypeTable } from "./type-of-schema";
import {
  BOOL,
  FLOAT,
  INT,
  NEVER,
  NULL,
  STRING,
  UNKNOWN,
  arrayOf,
  fieldReadType,
  isOpen,
  join,
  joinAll,
  literalString,
  membersOf,
  type FieldType,
  type Type,
} from "./type-model";

type Kinds<K extends Expr["kind"]> = Extract<Expr, { kind: K }>;

/**
 * The nodes the type rules judge, each listed once (a loop body is typed twice), so no
 * rule walks the program again: the typing pass is the only traversal.
 */
export interface FoundNodes {
  members: Kinds<"Member">[];
  calls: Kinds<"Call">[];
  /** `tool …`, `query …`, `command …`. */
  inputs: Kinds<"ToolCall" | "DbCall">[];
  operators: Kinds<"Binary" | "Unary">[];
  assigns: Extract<Stmt, { kind: "Assign" }>[];
  /** `obj.f = v` / `xs[i] = v`: the target's type is the field's or item's. */
  intos: Extract<Stmt, { kind: "AssignInto" }>[];
  /** Statements with a condition: `if`, `while`. */
  ifs: Extract<Stmt, { kind: "If" | "While" }>[];
  asserts: Extract<Stmt, { kind: "Assert" }>[];
  /** `score "name" expr` (luma eval): a bool or a number in [0, 1]. */
  scores: Extract<Stmt, { kind: "Score" }>[];
  fors: Extract<Stmt, { kind: "For" }>[];
  returns: Extract<Stmt, { kind: "Return" }>[];
  /** The unit each call and `return` sits in (a method call resolves by its agent). */
  unitOf: Map<Expr | Stmt, CodeUnit>;
}

export const emptyFound = (): FoundNodes => ({
  members: [],
  calls: [],
  inputs: [],
  operators: [],
  assigns: [],
  intos: [],
  ifs: [],
  asserts: [],
  scores: [],
  fors: [],
  returns: [],
  unitOf: new Map(),
});

export interface TyperState {
  table: TypeTable;
  symbols: Symbols;
  /** Every expression's type (the last pass over a loop body wins). */
  types: Map<Expr, Type>;
  /** What each `a.b` reads, and the verdict the field rules report. */
  fieldReads: Map<Expr, FieldRead>;
  found: FoundNodes;
  /** The fn or method each call resolves to. */
  callees: Map<Expr, FnDecl>;
  unit: CodeUnit;
  methodsOf(agent: NonNullable<CodeUnit["agent"]>): Map<string, FnDecl>;
  /** Types a `parallel for`'s loop and returns the element type of its value (`type-statements.ts` types statements). */
  typeParallelLoop(loop: Extract<Stmt, { kind: "For" }>, env: Env): Type;
}

export function inferExpr(s: TyperState, e: Expr, env: Env): Type {
  const t = infer(s, e, env);
  record(s, e, t);
  return t;
}

/** Records a type; a node typed for the first time is noted (one map operation, not two: a large program has a few hundred thousand). */
function record(s: TyperState, e: Expr, t: Type): void {
  const before = s.types.size;
  s.types.set(e, t);
  if (s.types.size !== before) note(s, e);
}

function note(s: TyperState, e: Expr): void {
  switch (e.kind) {
    case "Member":
      s.found.members.push(e);
      break;
    case "Call":
      s.found.calls.push(e);
      s.found.unitOf.set(e, s.unit);
      break;
    case "ToolCall":
    case "DbCall":
      s.found.inputs.push(e);
      break;
    case "Binary":
    case "Unary":
      s.found.operators.push(e);
      break;
    case "Num":
    case "Str":
    case "Bool":
    case "Null":
    case "Array":
    case "Object":
    case "Name":
    case "Index":
    case "Ask":
    case "Lambda":
    case "ParallelFor":
      break;
    default:
      assertNever(e);
  }
}

/** How one kind of expression is typed (its sub-expressions through `inferExpr`). */
type Infer<K extends Expr["kind"]> = (s: TyperState, e: Kinds<K>, env: Env) => Type;

/**
 * One small function per kind, called through this table rather than one switch: the
 * typer's hottest call, and the optimising JIT compiles a switch with every case's callees
 * inlined as one large function — on a 1 MB program, tens of ms of compile time that a
 * cold `luma check` pays on its two cores — where each small one compiles in a fraction.
 */
const INFER: { [K in Expr["kind"]]: Infer<K> } = {
  Num: (_s, e) => (Number.isInteger(e.value) ? INT : FLOAT),
  Bool: () => BOOL,
  Null: () => NULL,
  Str: (s, e, env) => {
    let text = "";
    let literal = true;
    for (const p of e.parts) {
      if (typeof p === "string") text += p;
      else {
        inferExpr(s, p, env);
        literal = false;
      }
    }
    return literal ? literalString(text) : STRING;
  },
  Array: (s, e, env) => arrayOf(joinAll(e.items.map((item) => inferExpr(s, item, env)))),
  Object: (s, e, env) => {
    const fields = new Map<string, FieldType>();
    for (const entry of e.entries) fields.set(entry.key, { type: inferExpr(s, entry.value, env), optional: false });
    return { kind: "object", fields };
  },
  Name: (_s, e, env) => env.get(e.name) ?? UNKNOWN,
  Member: (s, e, env) => {
    const read = readFieldType(inferExpr(s, e.object, env), e.property);
    s.fieldReads.set(e, read);
    return env.getPath(e) ?? read.type;
  },
  Index: (s, e, env) => indexType(inferExpr(s, e.object, env), inferExpr(s, e.index, env)),
  Call: (s, e, env) => callType(s, e, env),
  // A lambda is typed by its call (`callType`, its parameter an item of the list); here only
  // one that is no builtin's lambda argument (E0319), its parameter unknown.
  Lambda: (s, e, env) => lambdaType(s, e, env, UNKNOWN),
  Binary: (s, e, env) => binaryType(s, e, env),
  Unary: (s, e, env) => {
    const operand = inferExpr(s, e.operand, env);
    return e.op === "not" ? BOOL : numericResult(operand, operand);
  },
  ToolCall: (s, e, env) => {
    inferExpr(s, e.arg, env);
    const tool = s.symbols.tools.get(e.tool);
    return tool ? s.table.ofRef(tool.returns) : UNKNOWN;
  },
  Ask: (s, e, env) => {
    inferExpr(s, e.prompt, env);
    if (e.thread) inferExpr(s, e.thread, env);
    return s.table.ofRef(e.target);
  },
  // The array of each branch's value, in input order.
  ParallelFor: (s, e, env) => {
    if (e.limit) inferExpr(s, e.limit, env);
    return arrayOf(s.typeParallelLoop(e.loop, env));
  },
  DbCall: (s, e, env) => {
    inferExpr(s, e.arg, env);
    const decl = (e.op === "query" ? s.symbols.queries : s.symbols.commands).get(e.name);
    if (!decl) return UNKNOWN;
    const rows = s.table.ofRef(decl.returns);
    // A single-row query has no row to return when the result is empty.
    return e.op === "query" && decl.returns.kind !== "ArrayType" ? join(rows, NULL) : rows;
  },
};

const infer = (s: TyperState, e: Expr, env: Env): Type => (INFER[e.kind] as Infer<Expr["kind"]>)(s, e, env);

function indexType(object: Type, index: Type): Type {
  let t: Type = NEVER;
  for (const m of membersOf(object)) {
    if (m.kind === "array") t = join(t, m.element);
    else if (m.kind === "object" && !m.open && index.kind === "string" && index.values?.length === 1) {
      const f = m.fields.get(index.values[0]);
      t = join(t, f ? fieldReadType(f) : NULL);
    } else if (m.kind !== "null") t = join(t, UNKNOWN);
  }
  return t.kind === "never" ? UNKNOWN : t;
}

/** A lambda's type is its body's, typed with its parameter bound to `param` (over the enclosing names). */
function lambdaType(s: TyperState, e: Extract<Expr, { kind: "Lambda" }>, env: Env, param: Type): Type {
  const inner = env.clone();
  inner.assign(e.param, param);
  return inferExpr(s, e.body, inner);
}

function callType(s: TyperState, e: Extract<Expr, { kind: "Call" }>, env: Env): Type {
  // `Support(user).reply(…)`: the agent's arguments are typed too (the callee is otherwise not).
  if (e.callee.kind === "Member" && e.callee.object.kind === "Call") inferExpr(s, e.callee.object, env);
  const fn = resolveCallee(s, e.callee);
  const args: Type[] = [];
  // `map(xs, (x) => …)`: x is an item of xs.
  const lambda = !fn && e.callee.kind === "Name" && takesLambda(e.callee.name) && e.args.length === 2 && e.args[1].kind === "Lambda" ? e.args[1] : undefined;
  for (const arg of e.args) {
    if (arg === lambda) {
      const t = lambdaType(s, lambda, env, elementOf(args[0]));
      record(s, lambda, t);
      args.push(t);
    } else args.push(inferExpr(s, arg, env));
  }
  if (fn) {
    s.callees.set(e, fn);
    return fn.returns ? s.table.ofRef(fn.returns) : UNKNOWN;
  }
  const sig = e.callee.kind === "Name" ? builtinSignature(e.callee.name) : undefined;
  return sig ? builtinReturn(sig, args) : UNKNOWN;
}

/** The fn a call runs, as the runtime resolves it: a sibling method, then a top-level fn; or `Agent.m`. */
export function resolveCallee(s: Pick<TyperState, "symbols" | "unit" | "methodsOf">, callee: Expr): FnDecl | undefined {
  if (callee.kind === "Name") {
    const sibling = s.unit.agent ? s.methodsOf(s.unit.agent).get(callee.name) : undefined;
    return sibling ?? s.symbols.fns.get(callee.name);
  }
  if (callee.kind === "Member" && callee.object.kind === "Name") {
    const agent = s.symbols.agents.get(callee.object.name);
    return agent ? s.methodsOf(agent).get(callee.property) : undefined;
  }
  // `Support(user).reply(…)`: a method of an agent given its parameters.
  if (callee.kind === "Member" && callee.object.kind === "Call" && callee.object.callee.kind === "Name") {
    const agent = s.symbols.agents.get(callee.object.callee.name);
    return agent ? s.methodsOf(agent).get(callee.property) : undefined;
  }
  return undefined;
}

function binaryType(s: TyperState, e: Extract<Expr, { kind: "Binary" }>, env: Env): Type {
  if (e.op === "and" || e.op === "or") return logicalChainType(s, e, env);
  // Operators are left-associative, so a flat `a + b + …` of n terms is n levels deep on its
  // left: fold that spine with a loop, bottom up (a 20,000-term chain must not recurse 20,000
  // times). `and`/`or` chains have their own loop (`logicalChainType`): they narrow.
  if (!isSpineLink(e.left)) return operatorResult(e.op, inferExpr(s, e.left, env), inferExpr(s, e.right, env));
  const spine: Extract<Expr, { kind: "Binary" }>[] = [e];
  let node = e;
  while (isSpineLink(node.left)) {
    node = node.left;
    spine.push(node);
  }
  let left = inferExpr(s, node.left, env);
  for (let i = spine.length - 1; i >= 0; i--) {
    const b = spine[i];
    const t = operatorResult(b.op, left, inferExpr(s, b.right, env));
    if (i > 0) record(s, b, t);
    left = t;
  }
  return left;
}

/**
 * A left-nested chain of `and`/`or` (`a and b and …`, 20,000 terms deep on its left), typed
 * with a loop, bottom up. Each right side is typed where its left side is known truthy
 * (`and`) or falsy (`or`). Those environments are carried up the chain rather than
 * narrowed afresh from each node's whole left side (quadratic): for `X and R`, truthy is
 * truthy(X) narrowed by R, falsy is unknown (the input); for `X or R`, the converse.
 */
function logicalChainType(s: TyperState, e: Extract<Expr, { kind: "Binary" }>, env: Env): Type {
  const spine: Extract<Expr, { kind: "Binary" }>[] = [e];
  let node = e;
  while (isLogical(node.left)) {
    node = node.left;
    spine.push(node);
  }
  const first = node.left;
  inferExpr(s, first, env);
  let truthy = narrow(env, first, true, s.types);
  let falsy = narrow(env, first, false, s.types);
  for (let i = spine.length - 1; i >= 0; i--) {
    const b = spine[i];
    if (b.op === "and") {
      inferExpr(s, b.right, truthy);
      truthy = narrow(truthy, b.right, true, s.types);
      falsy = env;
    } else {
      inferExpr(s, b.right, falsy);
      falsy = narrow(falsy, b.right, false, s.types);
      truthy = env;
    }
    if (i > 0) record(s, b, BOOL);
  }
  return BOOL;
}

const isLogical = (e: Expr): e is Extract<Expr, { kind: "Binary" }> => e.kind === "Binary" && (e.op === "and" || e.op === "or");

/** A left operand folded into its parent's loop: an operator other than `and`/`or`. */
const isSpineLink = (e: Expr): e is Extract<Expr, { kind: "Binary" }> => e.kind === "Binary" && e.op !== "and" && e.op !== "or";

/**
 * What each arithmetic operator yields; any other (comparisons) a bool. A table, not a
 * switch: called in the typer's operator loop, a switch there had every case's function
 * inlined into the loop, and the optimising JIT compiled that as one large function.
 */
const OPERATOR_RESULT = new Map<string, (left: Type, right: Type) => Type>([
  ["+", plusType],
  ["/", () => FLOAT],
  ["-", numericResult],
  ["*", numericResult],
  ["%", numericResult],
]);

function operatorResult(op: string, left: Type, right: Type): Type {
  const result = OPERATOR_RESULT.get(op);
  return result ? result(left, right) : BOOL;
}

/** `int` when both sides are surely ints, else `float` (or `unknown` when unsure). */
function numericResult(left: Type, right: Type): Type {
  if (isOpen(left) || isOpen(right)) return UNKNOWN;
  return left.kind === "int" && right.kind === "int" ? INT : FLOAT;
}

const isNumber = (t: Type): boolean => t.kind === "int" || t.kind === "float";

function plusType(left: Type, right: Type): Type {
  if (left.kind === "string" || right.kind === "string") return STRING;
  // Two plain numbers (most `+`s): what the member test below finds, without its arrays.
  if (isNumber(left) && isNumber(right)) return numericResult(left, right);
  if (isOpen(left) || isOpen(right)) return UNKNOWN;
  const numbers = ["int", "float"] as const;
  const lNum = membersOf(left).every(isNumber);
  const rNum = membersOf(right).every(isNumber);
  if (lNum && rNum) return numericResult(left, right);
  if (left.kind === "array" && right.kind === "array") return arrayOf(join(left.element, right.element));
  // A mix (a union on one side): whatever the runtime makes of it.
  return canBe(left, numbers) && canBe(right, numbers) && !canBe(left, ["string"]) && !canBe(right, ["string"]) ? FLOAT : UNKNOWN;
}

/**
 * The parts of statement execution shared by the synchronous and asynchronous executors:
 * assignment (with the typed form's validation), assignment into a field or an item, what
 * `for` may iterate, how a loop takes a `break`/`continue`, and how a `while` yields.
 */
import { isThread } from "./thread-values";
import type { AssignTarget, Expr, Span, Stmt } from "../../syntax/ast";
import { errorAt } from "./runtime-errors";
import type { Frame, Runtime } from "./runtime-context";
import { validateParam, validateValue } from "./validate-value";
import { isObjectValue, setField, typeName, type Value } from "./values";

type AssignStmt = Extract<Stmt, { kind: "Assign" }>;
type AssignIntoStmt = Extract<Stmt, { kind: "AssignInto" }>;

/** `x = v`, or `x: T = v` validated against T (VALUE_INVALID; soft issues warn). */
export function assign(f: Frame, s: AssignStmt, value: Value): void {
  const v = s.type ? validateValue(f.rt, s.type, value, "output", s.name, s.span) : value;
  f.vars.set(s.name, v);
}

/** `for x in v`: v must be an array (objects are an error that points to `keys()`). */
export function forItems(rt: Runtime, v: Value, span: Span): readonly Value[] {
  if (Array.isArray(v)) return v;
  const hint = isObjectValue(v) ? "; iterate over keys(obj) to visit an object's fields" : "";
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Cannot iterate over ${typeName(v)}: 'for' needs an array${hint}`, span);
}

/**
 * `obj.key = v` / `xs[i] = v`: writes into the value the target's object holds (values are
 * shared, as in JavaScript: every name holding that object sees the change). An array item
 * must already exist (0 ≤ i < len): a write never grows an array with holes. A target whose
 * declared type the checker recorded (`checkAs`) takes only a value that passes it, as
 * `x: T = v` does: VALUE_INVALID naming the field (`order.status`), and nothing is written.
 */
export function writeInto(rt: Runtime, s: AssignIntoStmt, obj: Value, key: Value, given: Value): void {
  const span = s.target.span;
  // A thread changes only by `ask … in t` (thread-values.ts): its messages are read-only.
  if (isThread(obj)) throw errorAt(rt.sourceOf, "RUNTIME_ERROR", "A Thread is read-only: only `ask … in t` adds to it", span);
  const value = checked(rt, s, obj, key, given);
  if (Array.isArray(obj) && typeof key === "number" && Number.isInteger(key)) {
    if (key >= 0 && key < obj.length) {
      obj[key] = value;
      return;
    }
    throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Cannot assign to item ${key} of an array of ${obj.length} item(s)`, span);
  }
  if (isObjectValue(obj) && typeof key === "string") {
    setField(obj, key, value);
    return;
  }
  const want = Array.isArray(obj) ? "an int index" : isObjectValue(obj) ? "a string key" : "";
  const message = want
    ? `Cannot assign into ${typeName(obj)} with ${typeName(key)}: expected ${want}`
    : `Cannot assign into ${typeName(obj)}: only objects and arrays have fields and items`;
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", message, span);
}

/** The value a write stores: validated against the target's declared type, when the checker recorded one. */
function checked(rt: Runtime, s: AssignIntoStmt, obj: Value, key: Value, value: Value): Value {
  const check = s.checkAs;
  if (!check || (value === null && check.orNull)) return value;
  if (check.whole) {
    // The object as the write would leave it, validated before anything is written.
    if (!isObjectValue(obj) || typeof key !== "string") return value;
    validateValue(rt, check.type, { ...obj, [key]: value }, "output", pathOf(s.target.object), s.span);
    return value;
  }
  if (check.field) return validateParam(rt, check.field, value, pathOf(s.target.object), s.span, "output");
  return validateValue(rt, check.type, value, "output", targetPath(s.target, key), s.span);
}

/** How a message names a write's target: `order.status` (also for `order["status"]`), `xs[2]`. */
function targetPath(t: AssignTarget, key: Value): string {
  return pathOf(t.object) + (typeof key === "string" ? `.${key}` : `[${String(key)}]`);
}

function pathOf(e: Expr): string {
  if (e.kind === "Name") return e.name;
  if (e.kind === "Member") return `${pathOf(e.object)}.${e.property}`;
  if (e.kind !== "Index") return "(…)";
  const i = e.index;
  if (i.kind === "Num") return `${pathOf(e.object)}[${i.value}]`;
  if (i.kind === "Str" && i.parts.every((p) => typeof p === "string")) return `${pathOf(e.object)}.${i.parts.join("")}`;
  return `${pathOf(e.object)}[…]`;
}

/** After a loop body: true when the loop must end (`break` or `return`); a `continue` is consumed. */
export function loopEnds(f: Frame): boolean {
  if (f.jump !== undefined) {
    const ends = f.jump === "break";
    f.jump = undefined;
    return ends;
  }
  return f.returned;
}

/**
 * A `while` yields to the event loop (a macrotask, so signal listeners run) once every this
 * many turns: often enough that Ctrl-C stops a busy loop at once, rarely enough to cost
 * little (`bun run bench`, "while").
 */
export const WHILE_YIELD_EVERY = 1024;

const macrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The yield of a busy `while`; a run stopped meanwhile (a signal) ends here. */
export async function yieldTurn(f: Frame): Promise<void> {
  await macrotask();
  const reason = f.rt.host.stopped?.();
  if (reason !== undefined) throw reason;
}

/**
 * A `for` turn or a user function call — work that may never yield to the event loop (nested
 * `for`s over big ranges, runaway recursion), so no timer fires during it: every this many,
 * the run is asked whether it must end (a test's deadline reads the clock, run/run-deadline.ts).
 */
export const TURNS_PER_STOP_CHECK = 1024;
let turnsSinceStopCheck = 0;

/** Throws the reason the run was stopped, checked once every TURNS_PER_STOP_CHECK calls. */
export function checkStoppedEvery(rt: Runtime): void {
  if (++turnsSinceStopCheck < TURNS_PER_STOP_CHECK) return;
  turnsSinceStopCheck = 0;
  const reason = rt.host.stopped?.();
  if (reason !== undefined) throw reason;
}

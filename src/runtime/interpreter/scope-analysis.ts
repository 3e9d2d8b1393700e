/**
 * Facts about function bodies computed once and cached on the AST node (WeakMaps), never
 * per call:
 *
 * - the names a body assigns anywhere (`x = …`, `x: T = …`, `for x in …`, `catch x`; `x.f = …` needs x already). Variables
 *   are function-scoped, so such a name read before its assignment has run reads as `null`
 *   (the spec's `bonus` case); blocks do not open scopes.
 * - whether an expression or statement may suspend (it holds a tool call, `ask`, `query`,
 *   `command`, a call to a user function or agent method, or a `while`, which yields). Everything else is evaluated
 *   by the synchronous evaluator, with no promise or `await` in the way.
 */
import type { Expr, Program, Stmt } from "../../syntax/ast";
import { nestedBlocks } from "../../syntax/stmt-blocks";
import { BUILTINS } from "./builtins";
import { leftSpine } from "./operators";

const assignedCache = new WeakMap<readonly Stmt[], ReadonlySet<string>>();

export function assignedNames(body: readonly Stmt[]): ReadonlySet<string> {
  let names = assignedCache.get(body);
  if (!names) {
    const set = new Set<string>();
    collectAssigned(body, set);
    names = set;
    assignedCache.set(body, names);
  }
  return names;
}

function collectAssigned(stmts: readonly Stmt[], out: Set<string>): void {
  for (const s of stmts) {
    if (s.kind === "Assign" || s.kind === "For") out.add(s.name);
    else if (s.kind === "Try") out.add(s.errName);
    for (const block of nestedBlocks(s)) collectAssigned(block, out);
  }
}

/** Per program: which nodes may suspend. A call is synchronous only when it is a builtin no user function shadows. */
export class AsyncAnalysis {
  private readonly cache = new WeakMap<object, boolean>();
  private readonly userFnNames = new Set<string>();

  constructor(program: Program) {
    for (const d of program.decls) {
      if (d.kind === "Fn") this.userFnNames.add(d.name);
      else if (d.kind === "Agent") for (const m of d.methods) this.userFnNames.add(m.name);
    }
  }

  expr(e: Expr): boolean {
    let r = this.cache.get(e);
    if (r === undefined) {
      r = this.computeExpr(e);
      this.cache.set(e, r);
    }
    return r;
  }

  stmt(s: Stmt): boolean {
    let r = this.cache.get(s);
    if (r === undefined) {
      r = this.computeStmt(s);
      this.cache.set(s, r);
    }
    return r;
  }

  block(stmts: readonly Stmt[]): boolean {
    for (const s of stmts) if (this.stmt(s)) return true;
    return false;
  }

  private computeStmt(s: Stmt): boolean {
    switch (s.kind) {
      case "Assign":
        return this.expr(s.value);
      case "ExprStmt":
        return this.expr(s.expr);
      case "Return":
        return s.value ? this.expr(s.value) : false;
      case "If":
        return this.expr(s.cond) || this.block(s.then) || (s.else ? this.block(s.else) : false);
      case "For":
        return this.expr(s.iterable) || this.block(s.body);
      case "Try":
        return this.block(s.body) || this.block(s.handler);
      case "Assert":
        return this.expr(s.cond) || (s.message !== undefined && this.expr(s.message));
      case "AssignInto":
        return this.expr(s.target) || this.expr(s.value);
      case "Break":
      case "Continue":
        return false;
      // A `while` always runs in the asynchronous executor, which yields to the event loop
      // now and then: a loop that never waits would otherwise never see Ctrl-C.
      case "While":
      default:
        return true;
    }
  }

  private computeExpr(e: Expr): boolean {
    switch (e.kind) {
      case "Num":
      case "Bool":
      case "Null":
      case "Name":
        return false;
      case "Str":
        return e.parts.some((p) => typeof p !== "string" && this.expr(p));
      case "Array":
        return e.items.some((i) => this.expr(i));
      case "Object":
        return e.entries.some((en) => this.expr(en.value));
      case "Member":
        return this.expr(e.object);
      case "Index":
        return this.expr(e.object) || this.expr(e.index);
      case "Binary": {
        // Up a left-nested chain with a loop (a flat chain of n terms is n levels deep).
        const spine = leftSpine(e, (left) => !this.cache.has(left));
        let suspends = this.expr(spine[spine.length - 1].left);
        for (let i = spine.length - 1; i > 0; i--) {
          suspends = suspends || this.expr(spine[i].right);
          this.cache.set(spine[i], suspends);
        }
        return suspends || this.expr(e.right);
      }
      case "Unary":
        return this.expr(e.operand);
      case "Call": {
        const builtin =
          e.callee.kind === "Name" && Object.hasOwn(BUILTINS, e.callee.name) && !this.userFnNames.has(e.callee.name);
        return !builtin || e.args.some((a) => this.expr(a));
      }
      default:
        // ToolCall, Ask, DbCall, and any node kind this version does not know.
        return true;
    }
  }
}

const analysisCache = new WeakMap<Program, AsyncAnalysis>();

export function asyncAnalysisOf(program: Program): AsyncAnalysis {
  let a = analysisCache.get(program);
  if (!a) {
    a = new AsyncAnalysis(program);
    analysisCache.set(program, a);
  }
  return a;
}

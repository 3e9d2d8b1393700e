/**
 * Whether an expression or statement may suspend, computed once per node and cached on it
 * (a WeakMap), never per call: it may (it holds a tool call, `ask`, `query`,
 * `command`, a call to a user function or agent method or to `sleep`, or a `while`, which yields). Everything else is evaluated
 * by the synchronous evaluator, with no promise or `await` in the way. Which function a call
 * names is the program's one name resolution (`language/name-resolution.ts`), as for the checker.
 */
import { builtinSuspends } from "./builtins-threads";
import type { Expr, Program, Stmt } from "../../syntax/ast";
import { nestedBlocks, pushExprChildren, pushStmtExprs } from "../../language/ast-children";
import { resolutionOf, type NameResolution } from "../../language/name-resolution";
import { assertNever } from "../../syntax/assert-never";
import { BUILTINS, type BuiltinName, type BuiltinSpec } from "../../language/builtins";
import { leftSpine } from "./operators";

/** Per program: which nodes may suspend. A call is synchronous only when it resolves to a builtin (no user function shadows it). */
export class AsyncAnalysis {
  private readonly cache = new WeakMap<object, boolean>();
  private readonly names: NameResolution;
  /** The expressions whose suspending is being asked (see `someSuspends`). */
  private readonly pending: Expr[] = [];

  constructor(program: Program) {
    this.names = resolutionOf(program);
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
      case "AssignInto":
      case "ExprStmt":
      case "Return":
      case "Assert":
      case "Score":
      case "If":
      case "For":
      case "Try":
      case "Break":
      case "Continue":
        return this.someOwnExprSuspends(s) || nestedBlocks(s).some((block) => this.block(block));
      // A `while` always runs in the asynchronous executor, which yields to the event loop
      // now and then: a loop that never waits would otherwise never see Ctrl-C.
      case "While":
        return true;
      // Branches run concurrently: only the asynchronous executor runs them.
      case "Parallel":
        return true;
      default:
        return assertNever(s, () => true);
    }
  }

  /**
   * Whether one of the expressions on `pending` above `base` suspends, in source order,
   * stopping at the first that does; `pending` is cut back to `base`. One stack for the whole
   * analysis: a nested call pushes above its caller's entries and cuts back to its own base.
   */
  private someSuspends(base: number): boolean {
    const pending = this.pending;
    let suspends = false;
    for (let i = pending.length - 1; i >= base && !suspends; i--) suspends = this.expr(pending[i]);
    pending.length = base;
    return suspends;
  }

  private someOwnExprSuspends(s: Stmt): boolean {
    const base = this.pending.length;
    pushStmtExprs(s, this.pending);
    return this.someSuspends(base);
  }

  private someChildSuspends(e: Expr): boolean {
    const base = this.pending.length;
    pushExprChildren(e, this.pending);
    return this.someSuspends(base);
  }

  private computeExpr(e: Expr): boolean {
    switch (e.kind) {
      case "Num":
      case "Bool":
      case "Null":
      case "Name":
        return false;
      case "Str":
      case "Array":
      case "Object":
      case "Member":
      case "Index":
      case "Unary":
        return this.someChildSuspends(e);
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
      case "Call": {
        const builtin = e.callee.kind === "Name" && this.names.callsBuiltin(e.callee) && !builtinSuspends(e.callee.name, e.args.length);
        // A builtin that waits (`sleep`) suspends, like a user function.
        return !builtin || (BUILTINS[(e.callee as { name: BuiltinName }).name] as BuiltinSpec).suspends === true || e.args.some((a) => this.expr(a));
      }
      // A lambda runs where its builtin applies it: it suspends when its body does.
      case "Lambda":
        return this.expr(e.body);
      case "ToolCall":
      case "Ask":
      case "DbCall":
      case "ParallelFor":
        return true;
      default:
        // A node kind this version does not know: assume it may suspend.
        return assertNever(e, () => true);
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

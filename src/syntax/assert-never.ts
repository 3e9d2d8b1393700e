/**
 * The guard at the end of every switch over an AST kind (`Stmt`, `Expr`, `Decl`, `TypeRef`,
 * `ConfigValue`): `default: return assertNever(node)`.
 *
 * At compile time `node` must have been narrowed to `never`, so adding a kind to a union in
 * `ast.ts` fails to compile at every switch that does not handle it yet — a walker can no
 * longer skip a new statement's body in silence. A switch that means to act on only some
 * kinds lists the others in a grouped `case`. At run time the default is reached only by a
 * node this version does not know (a hand-built or foreign AST): it throws an internal
 * `LumaError`, or the site's own answer when it passes `onUnknown` (the formatter's
 * `UnprintableNode`, the interpreter's internal error at the node's span).
 * `tests/syntax/exhaustive-switches.test.ts` holds every such switch of `src/` to this form.
 *
 * @example
 *   switch (stmt.kind) {
 *     case "Break":
 *     case "Continue":
 *       return;
 *     …
 *     default:
 *       return assertNever(stmt);
 *   }
 */
import { LumaError } from "../diagnostics/luma-error";
import type { Span } from "../diagnostics/span";

/** What a node of an unknown kind still has: its kind, and usually its span. */
export interface UnknownNode {
  kind: string;
  span?: Span;
}

export function assertNever(node: never): never;
export function assertNever<T>(node: never, onUnknown: (node: UnknownNode) => T): T;
export function assertNever<T>(node: never, onUnknown?: (node: UnknownNode) => T): T {
  const unknown = node as UnknownNode;
  if (onUnknown) return onUnknown(unknown);
  throw new LumaError({ code: "RUNTIME_ERROR", message: `Internal error: no case for a '${unknown?.kind}' node` });
}

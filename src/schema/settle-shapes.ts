/**
 * The facts about a shape graph that only hold once it is complete (compile-shape.ts
 * calls this after its outermost compile). In a recursive schema a shape is built before
 * everything it refers to is filled in, so its first answers may be too low:
 *
 * - `needsPrepare` is a least fixpoint, propagated until nothing changes: an array of
 *   `Comment` needs preparing when some field further round the `Comment` cycle has a
 *   default, whichever was compiled first;
 * - a named schema is recursive when it reaches itself; its `def` (shared with every
 *   annotated copy) says so, and JSON Schema then writes it once in `$defs`.
 *
 * Both walks only ever see the shapes of one batch (a few per declaration), so a plain
 * fixpoint and one search per named shape are enough.
 */
import type { NamedDef, Shape } from "./shape";

export function settleShapes(shapes: readonly Shape[]): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const s of shapes) {
      if (s.needsPrepare || !childNeedsPrepare(s)) continue;
      s.needsPrepare = true;
      changed = true;
    }
  }
  for (const s of shapes) {
    if ((s.kind === "object" || s.kind === "union") && s.def && !s.def.recursive && reachesDef(s, s.def)) s.def.recursive = true;
  }
}

function childNeedsPrepare(s: Shape): boolean {
  if (s.kind === "object") return s.fields.some((f) => f.shape.needsPrepare);
  if (s.kind === "array") return s.element.needsPrepare;
  return false;
}

const children = (s: Shape): readonly Shape[] =>
  s.kind === "object" ? s.fields.map((f) => f.shape) : s.kind === "array" ? [s.element] : s.kind === "union" ? s.members : [];

/** Does a path of one or more steps lead from `start` back to a shape of `def`? */
function reachesDef(start: Shape, def: NamedDef): boolean {
  // Annotated copies share their original's field list: visit each structure once.
  const seen = new Set<unknown>();
  const stack = [...children(start)];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if ((s.kind === "object" || s.kind === "union") && s.def === def) return true;
    const key = s.kind === "object" ? s.fields : s.kind === "union" ? s.members : s;
    if (seen.has(key)) continue;
    seen.add(key);
    stack.push(...children(s));
  }
  return false;
}

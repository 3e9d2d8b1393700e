/**
 * What the value walks (`prepare-value.ts`, `collect-issues.ts`) need from their caller:
 * the direction, and a compiled check per tagged-union member, used to infer the member
 * of an untagged input. Passing it in keeps the walks free of compiler state.
 */
import type { ObjectShape, Shape } from "./shape";
import type { Direction } from "./schema-table-types";

export interface WalkContext {
  direction: Direction;
  /** Does `value` (already prepared for `member`) satisfy the member schema, tag not included? */
  memberAccepts(member: ObjectShape, value: unknown): boolean;
  /**
   * One validation of a recursive schema: each (value, union) is prepared once. Without it,
   * finding the member of an untagged tree tries every member at every level, each trying
   * the whole subtree again — exponential in the depth.
   */
  memo?: WeakMap<object, Map<Shape, unknown>>;
}

/** An object for JSON Schema's purposes (TypeBox's default policy: not null, not an array). */
export const isObjectLike = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** An own property's value; inherited names such as `constructor` never count as present. */
export const ownValue = (obj: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(obj, key) ? obj[key] : undefined;

/**
 * Is the value too big for the recursive walks of a recursive schema — nested deeper than
 * `maxDepth` objects and arrays, or holding more than `maxValues` of them as written out (a
 * shared object counts at every place, as in JSON: `t = {r: [t, t]}` sixty times over is a
 * few objects in memory and 2^60 to check)? The walk itself recurses at most `maxDepth`
 * deep and stops at the budget, so a hostile value (a model's 100 000-deep tree, a cycle)
 * costs at most `maxValues` steps and never the stack.
 */
export function tooBigToWalk(value: unknown, maxDepth: number, maxValues: number): "depth" | "size" | undefined {
  let budget = maxValues;
  const walk = (v: unknown, left: number): "depth" | "size" | undefined => {
    if (typeof v !== "object" || v === null) return undefined;
    if (left === 0) return "depth";
    if (--budget < 0) return "size";
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], left - 1);
        if (found) return found;
      }
    } else {
      for (const key in v) {
        const found = walk((v as Record<string, unknown>)[key], left - 1);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(value, maxDepth);
}

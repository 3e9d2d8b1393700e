/**
 * What the value walks (`prepare-value.ts`, `collect-issues.ts`) need from their caller:
 * the direction, and a compiled check per tagged-union member, used to infer the member
 * of an untagged input. Passing it in keeps the walks free of compiler state.
 */
import type { ObjectShape } from "./shape";
import type { Direction } from "./schema-table-types";

export interface WalkContext {
  direction: Direction;
  /** Does `value` (already prepared for `member`) satisfy the member schema, tag not included? */
  memberAccepts(member: ObjectShape, value: unknown): boolean;
}

/** An object for JSON Schema's purposes (TypeBox's default policy: not null, not an array). */
export const isObjectLike = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** An own property's value; inherited names such as `constructor` never count as present. */
export const ownValue = (obj: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(obj, key) ? obj[key] : undefined;

/**
 * Is the value nested deeper than `max` objects and arrays? Iterative, so a hostile value
 * (a model's 100 000-deep tree) is measured without recursing; the recursive walks and
 * compiled checks of a recursive schema are only run on values that pass this.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

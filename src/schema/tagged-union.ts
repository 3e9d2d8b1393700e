/**
 * Which member a tagged-union value belongs to (spec §3).
 *
 * A value that carries the tag names its member; nothing else is consulted. An input
 * without the tag is matched against every member (defaults filled per member first);
 * exactly one match is the member, zero or several are input errors. Outputs are never
 * inferred: a handler must write the tag itself.
 */
import type { ObjectShape, UnionShape } from "./shape";
import { ownValue } from "./walk-context";

/** The member the value's tag names, or undefined when the tag is missing or names none. */
export function taggedMember(shape: UnionShape, value: Record<string, unknown>): ObjectShape | undefined {
  const tag = ownValue(value, shape.tag);
  return typeof tag === "string" ? shape.memberByName.get(tag) : undefined;
}

/** The value carries something under the tag key (valid or not). */
export const hasTag = (shape: UnionShape, value: Record<string, unknown>): boolean =>
  ownValue(value, shape.tag) !== undefined;

export interface MemberMatch {
  member: ObjectShape;
  /** The value prepared for that member (its defaults filled). */
  prepared: unknown;
}

/** Every member an untagged value satisfies, in declaration order. */
export function matchingMembers(
  shape: UnionShape,
  tryMember: (member: ObjectShape) => MemberMatch | undefined,
): MemberMatch[] {
  const matches: MemberMatch[] = [];
  for (const member of shape.members) {
    const match = tryMember(member);
    if (match) matches.push(match);
  }
  return matches;
}

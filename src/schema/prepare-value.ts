/**
 * Before checking, a value is prepared: missing fields with `@default` get (a copy of)
 * their default, and on input a tagged-union value without its tag gets the discriminator
 * of the one member it matches (spec §3).
 *
 * Copy-on-write: a new object or array is made only along the path to something that
 * changed; the caller's value is never mutated, and unchanged subtrees are shared. Shapes
 * with nothing to prepare (`needsPrepare` false) are not walked at all, which is what
 * keeps the hot path cheap. In a recursive schema a union's result is memoized per value
 * (`ctx.memo`), so inferring the members of an untagged tree stays linear in its size.
 */
import type { ConstValue } from "../syntax/ast";
import type { ArrayShape, ObjectShape, Shape, UnionShape } from "./shape";
import { hasTag, matchingMembers, taggedMember, type MemberMatch } from "./tagged-union";
import { isObjectLike, ownValue, type WalkContext } from "./walk-context";

export function prepareValue(shape: Shape, value: unknown, ctx: WalkContext): unknown {
  if (!shape.needsPrepare) return value;
  switch (shape.kind) {
    case "object":
      return prepareObject(shape, value, ctx);
    case "array":
      return prepareArray(shape, value, ctx);
    case "union":
      return ctx.memo && isObjectLike(value) ? memoized(ctx.memo, shape, value, ctx) : prepareUnion(shape, value, ctx);
    default:
      return value;
  }
}

function memoized(memo: NonNullable<WalkContext["memo"]>, shape: UnionShape, value: Record<string, unknown>, ctx: WalkContext): unknown {
  let byShape = memo.get(value);
  if (byShape?.has(shape)) return byShape.get(shape);
  const prepared = prepareUnion(shape, value, ctx);
  if (!byShape) memo.set(value, (byShape = new Map()));
  byShape.set(shape, prepared);
  return prepared;
}

function prepareObject(shape: ObjectShape, value: unknown, ctx: WalkContext): unknown {
  if (!isObjectLike(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const field of shape.fields) {
    const fs = field.shape;
    if (!fs.needsPrepare) continue;
    const current = ownValue(value, field.name);
    let next: unknown;
    if (current === undefined) {
      if (!fs.hasDefault) continue;
      next = prepareValue(fs, copyConst(fs.default!), ctx);
    } else {
      next = prepareValue(fs, current, ctx);
    }
    if (next !== current) {
      out ??= { ...value };
      out[field.name] = next;
    }
  }
  return out ?? value;
}

function prepareArray(shape: ArrayShape, value: unknown, ctx: WalkContext): unknown {
  if (!Array.isArray(value)) return value;
  let out: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const next = prepareValue(shape.element, value[i], ctx);
    if (next !== value[i]) {
      out ??= value.slice();
      out[i] = next;
    }
  }
  return out ?? value;
}

function prepareUnion(shape: UnionShape, value: unknown, ctx: WalkContext): unknown {
  if (!isObjectLike(value)) return value;
  const member = taggedMember(shape, value);
  if (member) return prepareObject(member, value, ctx);
  // A wrong tag is reported, never corrected; outputs are never tagged for the handler.
  if (ctx.direction === "output" || hasTag(shape, value)) return value;
  const matches = untaggedMatches(shape, value, ctx);
  if (matches.length !== 1) return value;
  const { member: only, prepared } = matches[0];
  return { [shape.tag]: only.name, ...(prepared as Record<string, unknown>) };
}

/** The members an untagged input satisfies (also used to explain a failure). */
export function untaggedMatches(shape: UnionShape, value: Record<string, unknown>, ctx: WalkContext): MemberMatch[] {
  return matchingMembers(shape, (member) => {
    const prepared = prepareObject(member, value, ctx);
    return ctx.memberAccepts(member, prepared) ? { member, prepared } : undefined;
  });
}

/** Defaults are constants from the source; each use gets its own copy. */
function copyConst(v: ConstValue): ConstValue {
  if (Array.isArray(v)) return v.map(copyConst);
  if (v !== null && typeof v === "object") {
    const out: { [key: string]: ConstValue } = {};
    for (const [k, x] of Object.entries(v)) out[k] = copyConst(x);
    return out;
  }
  return v;
}

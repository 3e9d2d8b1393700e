/**
 * What `v.name` reads, given what `v` can be — shared by the typer (the result type) and
 * the rules (the verdict), so both always agree.
 *
 * The runtime reads a missing field of an object as `null` and fails on `null` or a
 * non-object, so over a union each member contributes: an object with the field its
 * field's type (`| null` when optional), an object without it `null`, `null` itself the
 * "possibly null" mark. The verdict is `unknown-field` only when no member could have the
 * field, and `not-an-object` only when no member is an object at all — `null` alone
 * included (`x = null` then `x.a`): that read fails on every path that reaches it.
 */
import { NULL, UNKNOWN, ANY, fieldReadType, join, membersOf, NEVER, type ObjectType, type Type } from "./type-model";

export interface FieldRead {
  type: Type;
  verdict: "ok" | "unknown-field" | "not-an-object";
  /** A member is `null` while another is an object: reading may fail at run time. */
  maybeNull: boolean;
  /** The objects that were searched (for "did you mean"). */
  objects: ObjectType[];
}

export function readFieldType(t: Type, name: string): FieldRead {
  // The common case, a read of a closed object (a schema value, a literal): what the loop
  // below gives for one such member, without its bookkeeping.
  if (t.kind === "object" && !t.open) {
    const f = t.fields.get(name);
    return f ? { type: fieldReadType(f), verdict: "ok", maybeNull: false, objects: [t] } : { type: NULL, verdict: "unknown-field", maybeNull: false, objects: [t] };
  }
  let type: Type = NEVER;
  let found = false;
  let open = false;
  let sawNull = false;
  let sawOther = false;
  const objects: ObjectType[] = [];
  for (const m of membersOf(t)) {
    switch (m.kind) {
      case "any":
      case "unknown":
        open = true;
        type = join(type, m.kind === "any" ? ANY : UNKNOWN);
        break;
      case "null":
        sawNull = true;
        break;
      case "never":
        break;
      case "object": {
        objects.push(m);
        if (m.open) {
          open = true;
          type = join(type, UNKNOWN);
          break;
        }
        const f = m.fields.get(name);
        if (f) {
          found = true;
          type = join(type, fieldReadType(f));
        } else type = join(type, NULL);
        break;
      }
      default:
        sawOther = true;
    }
  }
  const verdict = found || open ? "ok" : objects.length > 0 ? "unknown-field" : sawOther || sawNull ? "not-an-object" : "ok";
  // No object to read from (reported above, or `never`: a path that cannot run): `unknown`, so no error follows from it.
  if (objects.length === 0 && !open) type = UNKNOWN;
  return { type, verdict, maybeNull: sawNull && objects.length > 0 && !sawOther, objects };
}

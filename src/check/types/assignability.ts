/**
 * "Can a value of type V ever pass validation against T?" — structural, like the runtime
 * (TypeScript's rule, and what the validators do): an object fits a schema when its
 * fields fit, with no field the schema does not know and no required field missing.
 *
 * The answer is a *never* check, not a proof: it reports a mismatch only when no value V
 * may hold could pass. A union value fits when one of its members could (`int | null`
 * into `int` may well be an int); a float may hold an integral value, so it fits `int`;
 * a plain `string` may be one of an enum's values. Annotations (`@range`, `@pattern`…) are
 * value rules the runtime checks; only literals are judged against them (`literal-rules.ts`).
 *
 * The result is the reason, worded for a message (`field 'score': "high" is not int`), or
 * `undefined` when the value can fit.
 */
import { isOpen, typeText, type ObjectType, type Type } from "./type-model";

const MAX_DEPTH = 12;

export function mismatch(value: Type, target: Type, depth = 0): string | undefined {
  if (depth > MAX_DEPTH || isOpen(target) || isOpen(value) || value.kind === "never") return undefined;
  if (value.kind === "union") {
    let first: string | undefined;
    for (const m of value.members) {
      const why = mismatch(m, target, depth + 1);
      if (why === undefined) return undefined;
      first ??= why;
    }
    return value.members.length === 1 ? first : plain(value, target);
  }
  if (target.kind === "union") {
    const reasons: string[] = [];
    for (const m of target.members) {
      const why = mismatch(value, m, depth + 1);
      if (why === undefined) return undefined;
      reasons.push(why);
    }
    // One member of the same schema (or the only non-null one) says best what is wrong.
    const named = value.kind === "object" ? target.members.findIndex((m) => m.kind === "object" && m.name === value.name && m.name) : -1;
    if (named >= 0) return reasons[named];
    const objects = target.members.filter((m) => m.kind !== "null");
    return objects.length === 1 ? reasons[target.members.indexOf(objects[0])] : plain(value, target);
  }
  switch (value.kind) {
    case "null":
      return target.kind === "null" ? undefined : plain(value, target);
    case "bool":
      return target.kind === "bool" ? undefined : plain(value, target);
    case "int":
    case "float":
      return target.kind === "int" || target.kind === "float" ? undefined : plain(value, target);
    case "string": {
      if (target.kind !== "string") return plain(value, target);
      if (!target.values || !value.values) return undefined;
      return value.values.some((v) => target.values!.includes(v)) ? undefined : plain(value, target);
    }
    case "array": {
      if (target.kind !== "array") return plain(value, target);
      const why = mismatch(value.element, target.element, depth + 1);
      return why === undefined ? undefined : `items: ${why}`;
    }
    case "object":
      return target.kind === "object" ? objectMismatch(value, target, depth) : plain(value, target);
  }
}

function objectMismatch(value: ObjectType, target: ObjectType, depth: number): string | undefined {
  // A handle (`Thread`) is no data: only a handle of its kind fits it, and it fits no data type.
  if (target.handle || value.handle) return target.handle && value.handle && target.name === value.name ? undefined : plain(value, target);
  if (target.open || value.open) return undefined;
  const into = target.name ? `'${target.name}'` : "the target";
  for (const [name, f] of value.fields) {
    // Validation fills a defaulted field in: on a value it is always there.
    const mayBeAbsent = f.optional && !f.defaulted;
    const t = target.fields.get(name);
    if (!t) {
      // An optional field may be absent; a tag the runtime wrote may be dropped by its validator.
      if (mayBeAbsent || name === value.tag) continue;
      return `field '${name}' is not declared in ${into}`;
    }
    if (mayBeAbsent) continue;
    const why = mismatch(f.type, t.type, depth + 1);
    if (why !== undefined) return `field '${name}': ${why}`;
  }
  for (const [name, t] of target.fields) {
    if (t.optional || name === target.tag || value.fields.has(name)) continue;
    return `required field '${name}' is missing`;
  }
  return undefined;
}

const plain = (value: Type, target: Type): string => `${typeText(value)} is not ${typeText(target)}`;

/** Can the type hold a value of this kind (for operators: "could this be a number?"). */
export function canBe(t: Type, kinds: readonly Type["kind"][]): boolean {
  // Most types are not unions: no members array for them (operators ask this of every operand).
  if (t.kind !== "union") return isOpen(t) || kinds.includes(t.kind);
  return t.members.some((m) => isOpen(m) || kinds.includes(m.kind));
}

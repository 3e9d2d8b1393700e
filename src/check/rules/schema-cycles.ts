/**
 * Recursive schemas are allowed when they have a finite value: a comment tree whose
 * `replies: Comment[]` can be empty, a `parent?: Category` that can be left out, a tagged
 * union with a member that does not recurse. What is rejected is a cycle that no finite
 * value can satisfy — `schema A { a: A }`, or A → B → A through required fields only —
 * because every value of A would have to contain another A forever: no program, tool or
 * model could ever produce one, and a provider's strict mode would loop on it.
 *
 * Finiteness is a least fixpoint: a schema has a finite value when each of its required
 * (or defaulted) fields does (arrays always do: `[]`); a tagged union when one of its members does.
 * Whatever is left over lies on, or leads into, a cycle of required links; each such cycle
 * is reported once, at the schema declared first, with the path that closes it (cycles that
 * share a schema with one already reported are the same knot and are not reported again).
 */
import type { Field, TypeRef } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

/**
 * A field that may stay absent: written `name?:` and without `@default`. A defaulted field
 * is always present once defaults are filled (`a: A @default({})` would fill `{a: {a: …}}`
 * forever), so for finiteness it counts as required.
 */
const mayBeAbsent = (f: Field): boolean => f.optional && !f.annotations.some((a) => a.name === "default");

export function schemaCycles(ctx: CheckContext): void {
  const { schemas, unions } = ctx.symbols;
  const isType = (n: string) => schemas.has(n) || unions.has(n);

  const finite = new Set<string>();
  // Unknown names are reported by the type rule; here they count as finite so they add nothing.
  const refIsFinite = (ref: TypeRef): boolean =>
    ref.kind !== "NamedType" || !isType(ref.name) || finite.has(ref.name);
  const candidates: { name: string; hasFiniteValue: () => boolean }[] = [
    ...[...schemas.values()].map((s) => ({ name: s.name, hasFiniteValue: () => s.fields.every((f) => mayBeAbsent(f) || refIsFinite(f.type)) })),
    ...[...unions.values()].map((u) => ({ name: u.name, hasFiniteValue: () => u.members.some((m) => !isType(m.name) || finite.has(m.name)) })),
  ];
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of candidates) {
      if (finite.has(c.name) || !c.hasFiniteValue()) continue;
      finite.add(c.name);
      grew = true;
    }
  }

  // The links that force another value of an infinite type: required, non-array fields and union members.
  const edges = new Map<string, string[]>();
  const infinite = (n: string) => isType(n) && !finite.has(n);
  for (const s of schemas.values()) {
    if (finite.has(s.name)) continue;
    const forced = s.fields.filter((f) => !mayBeAbsent(f) && f.type.kind === "NamedType" && infinite(f.type.name));
    edges.set(s.name, forced.map((f) => (f.type as { name: string }).name));
  }
  for (const u of unions.values()) if (!finite.has(u.name)) edges.set(u.name, u.members.map((m) => m.name).filter(infinite));

  // Source order decides where a cycle is reported, so goldens are stable.
  const order = ctx.program.decls.filter((d) => edges.has(d.name) && ctx.symbols.byName.get(d.name) === d);
  const reported = new Set<string>();
  for (const decl of order) {
    if (reported.has(decl.name)) continue;
    const cycle = findCycleThrough(decl.name, edges);
    if (!cycle) continue;
    // A knot of cycles through one schema (Box -> Spin -> Box, Spin -> Twirl -> Box) is one mistake: one error.
    const knownKnot = cycle.some((n) => reported.has(n));
    cycle.forEach((n) => reported.add(n));
    if (knownKnot) continue;
    ctx.report(messages.recursiveSchema(decl.name, cycle), decl.nameSpan);
  }
}

/** The shortest path `start -> … -> start`, or undefined when `start` is on no cycle. */
function findCycleThrough(start: string, edges: Map<string, string[]>): string[] | undefined {
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of edges.get(node) ?? []) {
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start; at = parent.get(at!)) path.splice(1, 0, at!);
        return [...path, start];
      }
      if (!parent.has(next)) {
        parent.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

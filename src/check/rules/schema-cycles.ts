/**
 * Recursive schemas are allowed when they have a finite value: a comment tree whose
 * `replies: Comment[]` can be empty, a `parent?: Category` that can be left out, a tagged
 * union with a member that does not recurse. What is rejected is a cycle that no finite
 * value can satisfy — `schema A { a: A }`, or A → B → A through required fields only —
 * because every value of A would have to contain another A forever: no program, tool or
 * model could ever produce one (finiteness: `src/schema/finite-values.ts`).
 *
 * Each infinite schema lies on, or leads into, a cycle of links that force another value
 * (required or defaulted non-array fields, union members). Each cycle is reported once, at
 * the schema declared first, with the path that closes it; cycles that share a schema with
 * one already reported are the same knot and are not reported again.
 */
import { finiteTypes, mayBeAbsent } from "../../schema/finite-values";
import type { CheckContext } from "../context";
import { messages } from "../messages";

export function schemaCycles(ctx: CheckContext): void {
  const { schemas, unions } = ctx.symbols;
  const finite = finiteTypes(ctx.symbols);
  const infinite = (n: string) => (schemas.has(n) || unions.has(n)) && !finite.has(n);

  const edges = new Map<string, string[]>();
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
    const knownKnot = cycle.some((n) => reported.has(n));
    cycle.forEach((n) => reported.add(n));
    if (!knownKnot) ctx.report(messages.recursiveSchema(decl.name, cycle), decl.nameSpan);
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

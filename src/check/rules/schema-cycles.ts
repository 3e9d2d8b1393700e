/**
 * Recursive schemas are rejected: a schema that reaches itself through its fields (arrays
 * and optional fields included) or through union members. The schema compiler turns each
 * schema into one finite TypeBox type and the type generator into plain interfaces; a
 * cycle would have neither. Each cycle is reported once, at the schema declared first.
 */
import type { TypeRef } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

function namedIn(ref: TypeRef): string | undefined {
  if (ref.kind === "ArrayType") return namedIn(ref.element);
  return ref.kind === "NamedType" ? ref.name : undefined;
}

export function schemaCycles(ctx: CheckContext): void {
  const { schemas, unions } = ctx.symbols;
  const isType = (n: string) => schemas.has(n) || unions.has(n);
  const edges = new Map<string, string[]>();
  for (const s of schemas.values()) {
    edges.set(s.name, s.fields.map((f) => namedIn(f.type)).filter((n): n is string => !!n && isType(n)));
  }
  for (const u of unions.values()) edges.set(u.name, u.members.map((m) => m.name).filter(isType));

  // Source order decides where a cycle is reported, so goldens are stable.
  const order = ctx.program.decls.filter((d) => edges.has(d.name) && ctx.symbols.byName.get(d.name) === d);
  const reported = new Set<string>();
  for (const decl of order) {
    if (reported.has(decl.name)) continue;
    const cycle = findCycleThrough(decl.name, edges);
    if (!cycle) continue;
    cycle.forEach((n) => reported.add(n));
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

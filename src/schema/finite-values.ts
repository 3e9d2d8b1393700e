/**
 * Which declared schemas have a finite value (spec §2, recursive schemas). Shared by the
 * checker's cycle rule, which explains a failure, and the schema compiler, which refuses
 * to build a schema no value can satisfy (a program that skipped the checker).
 *
 * A least fixpoint: a schema is finite when every field it always carries is (an array
 * always is: `[]`); a tagged union when one member is. A field it always carries is one
 * not written `name?:`, or one with `@default` — a default is filled in whether or not the
 * value has the field, so `a?: A @default({})` would fill `{a: {a: …}}` without end.
 */
import type { Field, SchemaDecl, TypeRef, UnionDecl } from "../syntax/ast";

export interface TypeDecls {
  schemas: ReadonlyMap<string, SchemaDecl>;
  unions: ReadonlyMap<string, UnionDecl>;
}

/** A field a prepared value may still lack: `name?:` without `@default`. */
export const mayBeAbsent = (f: Field): boolean => f.optional && !f.annotations.some((a) => a.name === "default");

/** The names of declared schemas and tagged unions that some finite value satisfies. */
export function finiteTypes({ schemas, unions }: TypeDecls): Set<string> {
  const isType = (n: string) => schemas.has(n) || unions.has(n);
  const finite = new Set<string>();
  // An unknown name is someone else's error; here it counts as finite so it adds nothing.
  const refIsFinite = (ref: TypeRef): boolean => ref.kind !== "NamedType" || !isType(ref.name) || finite.has(ref.name);
  const candidates: { name: string; isFinite: () => boolean }[] = [
    ...[...schemas.values()].map((s) => ({ name: s.name, isFinite: () => s.fields.every((f) => mayBeAbsent(f) || refIsFinite(f.type)) })),
    ...[...unions.values()].map((u) => ({ name: u.name, isFinite: () => u.members.some((m) => !isType(m.name) || finite.has(m.name)) })),
  ];
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of candidates) {
      if (finite.has(c.name) || !c.isFinite()) continue;
      finite.add(c.name);
      grew = true;
    }
  }
  return finite;
}

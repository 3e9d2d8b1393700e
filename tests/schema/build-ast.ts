/**
 * A tiny AST builder for schema and typegen tests, so they do not depend on the parser.
 * `field("tags?", t.array(t.string), ann("items", 0, 5))` — a trailing `?` on the name
 * makes the field optional, as `tags?:` does in source.
 */
import type {
  Annotation,
  ConstValue,
  Decl,
  Field,
  NeedsEntry,
  Program,
  QueryDecl,
  SchemaDecl,
  Span,
  ToolDecl,
  TypeRef,
  UnionDecl,
} from "../../src/syntax/ast";

export const span: Span = { file: "test.luma", start: 0, end: 0 };

const prim = (name: "string" | "int" | "float" | "bool" | "any"): TypeRef => ({ kind: "PrimType", name, span });

export const t = {
  string: prim("string"),
  int: prim("int"),
  float: prim("float"),
  bool: prim("bool"),
  any: prim("any"),
  enum: (...values: string[]): TypeRef => ({ kind: "EnumType", values, span }),
  array: (element: TypeRef): TypeRef => ({ kind: "ArrayType", element, span }),
  named: (name: string): TypeRef => ({ kind: "NamedType", name, span }),
};

export const ann = (name: string, ...args: ConstValue[]): Annotation => ({
  kind: "Annotation",
  name,
  args: args.map((value) => ({ value, span })),
  span,
});

export function field(name: string, type: TypeRef, ...annotations: Annotation[]): Field {
  const optional = name.endsWith("?");
  return { kind: "Field", name: optional ? name.slice(0, -1) : name, optional, type, annotations, span, nameSpan: span };
}

export const schema = (name: string, ...fields: Field[]): SchemaDecl => ({ kind: "Schema", name, fields, span, nameSpan: span });

export const union = (name: string, members: string[], tag: string): UnionDecl => ({
  kind: "Union",
  name,
  members: members.map((m) => ({ name: m, span })),
  tag,
  tagSpan: span,
  span,
  nameSpan: span,
});

export function tool(name: string, params: Field[], returns: TypeRef, needs: [string, TypeRef][] = []): ToolDecl {
  const needsEntries: NeedsEntry[] = needs.map(([n, type]) => ({ kind: "Needs", name: n, type, span, nameSpan: span }));
  return { kind: "Tool", name, params, returns, options: [], needs: needsEntries, span, nameSpan: span };
}

export const query = (kind: "Query" | "Command", name: string, params: Field[], returns: TypeRef): QueryDecl => ({
  kind,
  name,
  params,
  returns,
  entries: [],
  span,
  nameSpan: span,
});

export const program = (...decls: Decl[]): Program => ({ kind: "Program", file: "test.luma", decls, body: [], span });

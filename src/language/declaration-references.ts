/**
 * Every place one file's AST names a top-level declaration: the one list of "where a
 * declaration is referred to", read where a program spans files (`import`,
 * docs/language/imports.md). The linker (`check/imports/`) renames an import's alias back to
 * the declared name through it and finds names a file uses without importing them; the
 * language server's rename and references across files read the same list.
 *
 * A reference is a type name (`Order`, `Order[]`, a tagged union's member), the tool of
 * `tool x(…)` or `ask … using tool x`, the query or command of `query q(…)`, a `mock`'s
 * model, a name of a declaration block's value (`model: Fast`, `tools: [a, b]`,
 * `source: Db`: the first word of a path), or a `Name` in code. A Name may also be a
 * parameter or a variable: the caller tells which through the name resolution
 * (`name-resolution.ts`), so this file decides nothing about scope.
 */
import type { ConfigValue, Decl, Entry, Expr, Field, FnDecl, Program, Span, Stmt, TypeRef } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";
import { forEachExpr, forEachStmt } from "./walk";

export type NameExpr = Extract<Expr, { kind: "Name" }>;

/** One reference: the name written, where, how to rewrite it, and — for a Name in code — the node. */
export interface DeclarationReference {
  name: string;
  span: Span;
  /** A Name expression of code (a variable or parameter, or a declaration: the resolution says). */
  nameExpr?: NameExpr;
  /** Writes another name in its place (the span is kept). */
  rename(to: string): void;
}

/** Calls `visit` for every reference in the file's declarations, top-level code, tests and evals. */
export function forEachDeclarationReference(program: Pick<Program, "decls" | "body" | "tests" | "evals">, visit: (ref: DeclarationReference) => void): void {
  for (const decl of program.decls) declRefs(decl, visit);
  codeRefs(program.body, visit);
  for (const test of program.tests ?? []) {
    for (const mock of test.mocks) {
      visit({ name: mock.model, span: mock.modelSpan, rename: (to) => void (mock.model = to) });
      exprRefs(mock.turns, visit);
    }
    codeRefs(test.body, visit);
  }
  for (const evalDecl of program.evals ?? []) codeRefs(evalDecl.body, visit);
}

function declRefs(decl: Decl, visit: (ref: DeclarationReference) => void): void {
  switch (decl.kind) {
    case "Schema":
      fieldRefs(decl.fields, visit);
      return;
    case "Union":
      for (const m of decl.members) visit({ name: m.name, span: m.span, rename: (to) => void (m.name = to) });
      return;
    case "Tool":
      fieldRefs(decl.params, visit);
      typeRefs(decl.returns, visit);
      for (const need of decl.needs) typeRefs(need.type, visit);
      entryRefs(decl.options, visit);
      return;
    case "Model":
    case "Datasource":
      entryRefs(decl.entries, visit);
      return;
    case "Agent":
      entryRefs(decl.entries, visit);
      for (const m of decl.methods) fnRefs(m, visit);
      return;
    case "Fn":
      fnRefs(decl, visit);
      return;
    case "Query":
    case "Command":
      fieldRefs(decl.params, visit);
      typeRefs(decl.returns, visit);
      entryRefs(decl.entries, visit);
      return;
    default:
      assertNever(decl);
  }
}

function fnRefs(fn: FnDecl, visit: (ref: DeclarationReference) => void): void {
  fieldRefs(fn.params, visit);
  if (fn.returns) typeRefs(fn.returns, visit);
  codeRefs(fn.body, visit);
}

function fieldRefs(fields: readonly Field[], visit: (ref: DeclarationReference) => void): void {
  for (const f of fields) typeRefs(f.type, visit);
}

function typeRefs(type: TypeRef, visit: (ref: DeclarationReference) => void): void {
  if (type.kind === "NamedType") visit({ name: type.name, span: type.span, rename: (to) => void (type.name = to) });
  else if (type.kind === "ArrayType") typeRefs(type.element, visit);
}

function entryRefs(entries: readonly Entry[], visit: (ref: DeclarationReference) => void): void {
  for (const e of entries) configRefs(e.value, visit);
}

function configRefs(value: ConfigValue, visit: (ref: DeclarationReference) => void): void {
  if (value.kind === "Path") {
    const parts = value.parts;
    const first = value.span.start;
    visit({ name: parts[0]!, span: { file: value.span.file, start: first, end: first + parts[0]!.length }, rename: (to) => void (parts[0] = to) });
  } else if (value.kind === "List") for (const item of value.items) configRefs(item, visit);
  else if (value.kind === "Obj") entryRefs(value.entries, visit);
}

function codeRefs(stmts: readonly Stmt[], visit: (ref: DeclarationReference) => void): void {
  forEachStmt(stmts, (stmt) => {
    if (stmt.kind === "Assign" && stmt.type) typeRefs(stmt.type, visit);
  });
  forEachExpr(stmts, (expr) => exprRef(expr, visit));
}

function exprRefs(root: Expr, visit: (ref: DeclarationReference) => void): void {
  forEachExpr([{ kind: "ExprStmt", expr: root, span: root.span }], (expr) => exprRef(expr, visit));
}

/**
 * The reference one expression node makes itself (its children are visited by the walk):
 * only a Name, a tool call, a query or command call and an `ask` name a declaration.
 */
function exprRef(expr: Expr, visit: (ref: DeclarationReference) => void): void {
  if (expr.kind === "Name") visit({ name: expr.name, span: expr.span, nameExpr: expr, rename: (to) => void (expr.name = to) });
  else if (expr.kind === "ToolCall") visit({ name: expr.tool, span: expr.toolSpan, rename: (to) => void (expr.tool = to) });
  else if (expr.kind === "DbCall") visit({ name: expr.name, span: expr.nameSpan, rename: (to) => void (expr.name = to) });
  else if (expr.kind === "Ask") {
    typeRefs(expr.target, visit);
    const using = expr.usingTool;
    if (using) visit({ name: using.name, span: using.span, rename: (to) => void (using.name = to) });
  }
}

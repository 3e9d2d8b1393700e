/**
 * `createSchemaTable(program)`: the schema compiler's entry point (spec §2–§4).
 *
 * Every declared schema, tagged union, tool input (`__tool_<name>_input`) and query/command
 * input is compiled to a shape when the table is created, so a program the checker should
 * have rejected fails here, at startup, as a LumaError. TypeBox types are built on first
 * request and TypeCompiler checks on first validation — both cached.
 *
 * Targets map to shapes through cached lookups: names by name, type references by object
 * identity first and then by their source text (`int[]`), so repeated validation of the
 * same AST node never re-derives anything.
 */
import type { TSchema } from "@sinclair/typebox";
import type { Field, Program, QueryDecl, ToolDecl, TypeRef } from "../syntax/ast";
import { runtimeError } from "../diagnostics/luma-error";
import type { SchemaTable, ValidationResult, ValidationTarget, Direction } from "./schema-table-types";
import { createShapeCompiler } from "./compile-shape";
import type { ObjectShape, Shape } from "./shape";
import { toTypeBoxDocument } from "./to-typebox";
import { typeText } from "./type-text";
import { ShapeValidator } from "./validator";

export const toolInputName = (tool: string): string => `__tool_${tool}_input`;
export const queryInputName = (decl: Pick<QueryDecl, "kind" | "name">): string =>
  `__${decl.kind === "Query" ? "query" : "command"}_${decl.name}_input`;

export function createSchemaTable(program: Program): SchemaTable {
  const compiler = createShapeCompiler(program);
  const validator = new ShapeValidator();

  const inputsOf = (decls: (ToolDecl | QueryDecl)[], nameOf: (d: ToolDecl | QueryDecl) => string) => {
    const map = new Map<string, ObjectShape>();
    for (const d of decls) map.set(d.name, compiler.objectOf(nameOf(d), d.params));
    return map;
  };
  const tools = inputsOf(
    program.decls.filter((d): d is ToolDecl => d.kind === "Tool"),
    (d) => toolInputName(d.name),
  );
  const queries = inputsOf(
    program.decls.filter((d): d is QueryDecl => d.kind === "Query" || d.kind === "Command"),
    (d) => queryInputName(d as QueryDecl),
  );
  // Compile every declared schema now: a bad one is a startup error, not a mid-run surprise.
  for (const d of program.decls) if (d.kind === "Schema" || d.kind === "Union") compiler.named(d.name);

  const byRef = new WeakMap<TypeRef, Shape>();
  const byText = new Map<string, Shape>();
  const shapeOfRef = (ref: TypeRef): Shape => {
    let shape = byRef.get(ref);
    if (!shape) {
      const key = typeText(ref);
      shape = byText.get(key) ?? compiler.ofType(ref);
      byText.set(key, shape);
      byRef.set(ref, shape);
    }
    return shape;
  };

  const shapeOfTarget = (target: Exclude<ValidationTarget, { param: Field }>): Shape => {
    if ("toolInput" in target) return lookup(tools, target.toolInput, "tool");
    if ("queryInput" in target) return lookup(queries, target.queryInput, "query or command");
    if ("schema" in target) {
      const shape = compiler.named(target.schema);
      if (!shape) throw runtimeError("RUNTIME_ERROR", `Unknown schema '${target.schema}'.`);
      return shape;
    }
    return shapeOfRef(target);
  };

  // A fn parameter is checked as a one-field object `{ <name>: value }`, so its annotations
  // apply exactly as on a tool parameter and the issue path reads `Flow.run.text`.
  const byParam = new WeakMap<Field, ObjectShape>();
  const validateParam = (param: Field, value: unknown, direction: Direction, root: string): ValidationResult => {
    let shape = byParam.get(param);
    if (!shape) byParam.set(param, (shape = compiler.objectOf(`__param_${param.name}`, [param])));
    const result = validator.validate(shape, { [param.name]: value }, direction, root);
    return { ...result, value: (result.value as Record<string, unknown> | undefined)?.[param.name] };
  };

  return {
    named: (name) => {
      const shape = compiler.named(name);
      return shape && toTypeBoxDocument(shape);
    },
    typeOf: (ref) => toTypeBoxDocument(shapeOfRef(ref)),
    // Queries and commands listed in an agent's `tools` are offered to a model like tools
    // (§12), so their parameters are answered here too (one namespace: no clash).
    toolInput: (tool) => toTypeBoxDocument(tools.get(tool) ?? queries.get(tool) ?? lookup(tools, tool, "tool")),
    validate: (target: ValidationTarget, value: unknown, direction: Direction, root: string): ValidationResult =>
      "param" in target
        ? validateParam(target.param, value, direction, root)
        : validator.validate(shapeOfTarget(target), value, direction, root),
  };
}

function lookup(map: Map<string, ObjectShape>, name: string, what: string): ObjectShape {
  const shape = map.get(name);
  if (!shape) throw runtimeError(what === "tool" ? "TOOL_NOT_FOUND" : "RUNTIME_ERROR", `Unknown ${what} '${name}'.`);
  return shape;
}

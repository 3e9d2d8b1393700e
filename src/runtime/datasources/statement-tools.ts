/**
 * What the native tool loop (`ask`) needs to offer a query or command to a model (spec §12:
 * listed in an agent's `tools`, "callable by the model through the same pipeline"):
 * whether a name is one, and its model-facing definition. Running it is an ordinary
 * `ToolInvoker.call({ tool: name, input, mode: "native", agent, methodCall })`: the
 * invoker holds the statement plans (see `statement-plans.ts`), so a query is a read and a
 * command a write for `tool_policy`, with the same timeout, trace and breaker.
 */
import type { TSchema } from "@sinclair/typebox";
import type { Program, QueryDecl } from "../../syntax/ast";
import type { SchemaTable } from "../../schema/schema-table-types";
import { readStatementEntries, statementDescription } from "./statement-entries";

/** The query or command declared under `name`, if that is what it is. */
export function statementDecl(program: Program, name: string): QueryDecl | undefined {
  return program.decls.find((d): d is QueryDecl => (d.kind === "Query" || d.kind === "Command") && d.name === name);
}

export interface StatementToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the parameters (TypeBox), as for a tool. */
  parameters: TSchema;
  sideEffects: "read" | "write";
}

export function statementToolDefinition(program: Program, schemas: SchemaTable, name: string): StatementToolDefinition | undefined {
  const decl = statementDecl(program, name);
  if (decl === undefined) return undefined;
  return {
    name,
    description: statementDescription(decl, readStatementEntries(decl)),
    parameters: schemas.toolInput(name),
    sideEffects: decl.kind === "Query" ? "read" : "write",
  };
}

/**
 * The program's declarations, indexed by name. All declaration kinds share one namespace
 * (a duplicate across kinds is reported by the duplicate rule); here the first
 * declaration of a name wins, so later rules see one consistent table.
 */
import type {
  AgentDecl,
  DatasourceDecl,
  Decl,
  FnDecl,
  ModelDecl,
  Program,
  QueryDecl,
  SchemaDecl,
  ToolDecl,
  UnionDecl,
} from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";

export interface Symbols {
  /** First declaration of each name, any kind. */
  byName: Map<string, Decl>;
  schemas: Map<string, SchemaDecl>;
  unions: Map<string, UnionDecl>;
  tools: Map<string, ToolDecl>;
  models: Map<string, ModelDecl>;
  agents: Map<string, AgentDecl>;
  fns: Map<string, FnDecl>;
  datasources: Map<string, DatasourceDecl>;
  queries: Map<string, QueryDecl>;
  commands: Map<string, QueryDecl>;
}

export function buildSymbols(program: Program): Symbols {
  const s: Symbols = {
    byName: new Map(),
    schemas: new Map(),
    unions: new Map(),
    tools: new Map(),
    models: new Map(),
    agents: new Map(),
    fns: new Map(),
    datasources: new Map(),
    queries: new Map(),
    commands: new Map(),
  };
  for (const decl of program.decls) {
    if (s.byName.has(decl.name)) continue;
    s.byName.set(decl.name, decl);
    tableFor(s, decl).set(decl.name, decl as never);
  }
  return s;
}

function tableFor(s: Symbols, decl: Decl): Map<string, Decl> {
  switch (decl.kind) {
    case "Schema":
      return s.schemas;
    case "Union":
      return s.unions;
    case "Tool":
      return s.tools;
    case "Model":
      return s.models;
    case "Agent":
      return s.agents;
    case "Fn":
      return s.fns;
    case "Datasource":
      return s.datasources;
    case "Query":
      return s.queries;
    case "Command":
      return s.commands;
    default:
      return assertNever(decl);
  }
}

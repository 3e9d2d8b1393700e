/**
 * The entries of a `query` / `command` block (spec §12: `source`, `sql`; extension:
 * `description`, what a model is told), read once. The checker has already
 * rejected unknown keys and wrong value types.
 */
import type { ConfigValue, QueryDecl } from "../../syntax/ast";
import { readEntries, readString } from "../tools/steps/config-values";

export interface StatementEntries {
  source?: string;
  sql?: string;
  description?: string;
}

const READERS: Record<string, (v: ConfigValue, o: StatementEntries) => void> = {
  source: (v, o) => (o.source = readString(v)),
  sql: (v, o) => (o.sql = readString(v)),
  description: (v, o) => (o.description = readString(v)),
};

export const readStatementEntries = (decl: QueryDecl): StatementEntries => readEntries<StatementEntries>(decl.entries, READERS, {});

/** What a model is told about the statement: its `description`, or what it touches. */
export const statementDescription = (decl: QueryDecl, entries: StatementEntries): string =>
  entries.description ??
  `${decl.kind === "Query" ? "Reads from" : "Writes to"} the datasource '${entries.source ?? ""}'.`;

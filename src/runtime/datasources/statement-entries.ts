/**
 * The entries of a `query` / `command` block (spec §12: `source`, `sql`; extension:
 * `description`, what a model is told), read once through the statement key table
 * (`language/keys/statement-keys.ts`). The checker has already rejected unknown keys and
 * wrong value types.
 */
import { readKeys, type KeyValues } from "../../language/keys/key-spec";
import { STATEMENT_KEYS } from "../../language/keys/statement-keys";
import type { QueryDecl } from "../../syntax/ast";

export type StatementEntries = KeyValues<typeof STATEMENT_KEYS>;

export const readStatementEntries = (decl: QueryDecl): StatementEntries => readKeys(STATEMENT_KEYS, decl.entries);

/** What a model is told about the statement: its `description`, or what it touches. */
export const statementDescription = (decl: QueryDecl, entries: StatementEntries): string =>
  entries.description ??
  `${decl.kind === "Query" ? "Reads from" : "Writes to"} the datasource '${entries.source ?? ""}'.`;

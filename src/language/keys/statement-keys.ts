/**
 * The keys of a `query` or `command` block (spec §12; `description` is an extension): the
 * one table the checker, the runtime's statements (`statement-entries.ts`), completion and
 * the first-hour hints read.
 */
import { datasourceRef, str } from "../value-kinds";
import { keyTable } from "./key-spec";

export const STATEMENT_KEYS = keyTable({
  source: { kind: datasourceRef, required: true, doc: "The datasource the statement runs on." },
  sql: { kind: str, required: true, doc: "One SQL statement; $1…$n are the parameters in order." },
  // Extension: what a model is told when the statement is listed in an agent's `tools`.
  description: { kind: str, doc: "What the model is told the statement does." },
});

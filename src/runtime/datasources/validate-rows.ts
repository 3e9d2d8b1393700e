/**
 * Row validation (spec §12): every returned row is checked against the row schema with
 * defaults applied. A bad row fails the call with QUERY_ROW_INVALID naming the row index
 * (0-based), the field and the rule; a `soft` rule annotates instead (spec §3: a warning
 * line and a `validation.soft` trace event), and the row is kept.
 *
 * SQL NULL in a column the schema marks optional (`tier?:`) means "absent", so the field's
 * `@default` applies; NULL in a required column is reported like any wrong type. SQLite has
 * no boolean type: from the built-in SQLite bridge, 0/1 in a `bool` field are false/true.
 *
 * 64-bit integers arrive as bigints (SQLite INTEGER, Postgres int8) and never become a
 * different number: a safe one is a number; one beyond ±(2^53−1) is QUERY_ROW_INVALID
 * naming the row and column — unless the field is declared `string`, which gets the exact
 * digits (any size, so an id column reads the same way whatever its value).
 *
 * The result: a `T[]` query → every row; a `T` query → the first row, or null when there is
 * none; a command → its declared schema from the first row (with no row, only a schema
 * whose fields are all optional or defaulted can be satisfied).
 */
import type { TypeRef } from "../../syntax/ast";
import type { SchemaTable, ValidationIssue } from "../../schema/schema-table-types";
import { kindOf } from "../base/value-kind";
import { datasourceErrors, type StatementRef } from "./datasource-errors";
import { plainValue } from "./row-values";

export interface RowContract {
  statement: StatementRef;
  /** The row schema (a NamedType: a schema or a tagged union). */
  rowType: TypeRef;
  /** A query declared `-> T[]`. */
  many: boolean;
  /** Fields declared optional on a plain row schema: NULL there is dropped before validation. */
  optionalFields: ReadonlySet<string>;
  /**
   * `bool` fields of the row schema, for a database with no boolean type (SQLite): there,
   * and only there, 0 and 1 in such a field read as false and true.
   */
  intBooleanFields?: ReadonlySet<string>;
  /** Fields declared `string`: a bigint there reads as its exact digits. */
  stringFields: ReadonlySet<string>;
}

export type SoftIssueSink = (statement: StatementRef, issue: ValidationIssue) => void;

const rowRoot = (c: RowContract, index: number) => `${c.statement.name}.rows[${index}]`;

/**
 * A driver row → plain fields, in one pass and one new object (the bridge's own row is never
 * changed). A top-level bigint goes by its field's declared type; the rest by plainValue.
 */
function plainRow(c: RowContract, row: Record<string, unknown>, index: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(row)) {
    const v = row[field];
    if (v === undefined) continue;
    if (typeof v !== "bigint") out[field] = plainValue(v);
    else if (c.stringFields.has(field)) out[field] = v.toString();
    else {
      // Exact both ways: a bigint beyond ±(2^53−1) converts to a number that is not safe.
      const n = Number(v);
      if (!Number.isSafeInteger(n)) throw datasourceErrors.unsafeInteger(c.statement, index, field);
      out[field] = n;
    }
  }
  return out;
}

const isPlainRow = (row: unknown): row is Record<string, unknown> =>
  row !== null && typeof row === "object" && !Array.isArray(row) && !ArrayBuffer.isView(row) && !(row instanceof Date) && !(row instanceof ArrayBuffer);

function prepareRow(c: RowContract, row: unknown, index: number): Record<string, unknown> {
  const plain = isPlainRow(row) ? plainRow(c, row, index) : plainValue(row);
  if (plain === null || typeof plain !== "object" || Array.isArray(plain)) {
    throw datasourceErrors.rowNotObject(c.statement, index, kindOf(plain));
  }
  const out = plain as Record<string, unknown>;
  for (const field of c.optionalFields) if (out[field] === null) delete out[field];
  if (c.intBooleanFields) {
    for (const field of c.intBooleanFields) if (out[field] === 0 || out[field] === 1) out[field] = out[field] === 1;
  }
  return out;
}

function checkRow(c: RowContract, schemas: SchemaTable, row: Record<string, unknown>, index: number, soft: SoftIssueSink): unknown {
  const root = rowRoot(c, index);
  const r = schemas.validate(c.rowType, row, "output", root);
  if (!r.ok) {
    const first = r.hard[0];
    const field = first.path.startsWith(`${root}.`) ? first.path.slice(root.length + 1) : "";
    throw datasourceErrors.rowInvalid(c.statement, index, field, first.rule, r.hard.map((i) => i.message), r.hard);
  }
  for (const issue of r.soft) soft(c.statement, issue);
  return r.value;
}

export function validateRows(c: RowContract, schemas: SchemaTable, rows: unknown, soft: SoftIssueSink): unknown {
  if (!Array.isArray(rows)) throw datasourceErrors.notRows(c.statement, kindOf(rows));
  const out = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = checkRow(c, schemas, prepareRow(c, rows[i], i), i, soft);
  if (c.many) return out;
  if (out.length > 0) return out[0];
  if (c.statement.kind === "query") return null;
  // A command with no row: its schema may still be satisfied by defaults alone.
  const empty = schemas.validate(c.rowType, {}, "output", rowRoot(c, 0));
  if (!empty.ok) throw datasourceErrors.noRow(c.statement, c.rowType.kind === "NamedType" ? c.rowType.name : "schema");
  return empty.value;
}

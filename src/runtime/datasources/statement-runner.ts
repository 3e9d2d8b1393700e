/**
 * The handler of one query or command (spec §12), as the tool pipeline runs it at step 10:
 * it gets the validated input (defaults applied) and the call's AbortSignal, passes the
 * parameters to the bridge as a positional array in declaration order (`$1…$n`, never
 * spliced into the SQL), and validates what comes back.
 *
 * Whatever the bridge does wrong becomes a LumaError that names the statement and its
 * datasource: a throw (connection refused, SQL error) → TOOL_HANDLER_ERROR (a typed
 * LumaToolError keeps its code); not an array → TOOL_OUTPUT_INVALID; a bad row →
 * QUERY_ROW_INVALID. Once the signal fired, the timeout is the error, not the driver's
 * "statement cancelled".
 */
import { LumaError } from "../../diagnostics/luma-error";
import type { QueryDecl } from "../../syntax/ast";
import type { SchemaTable } from "../../schema/schema-table-types";
import type { Bridge } from "./bridge";
import { datasourceErrors, type StatementRef } from "./datasource-errors";
import { driverCodeOf, driverErrorKind } from "./driver-error-kinds";
import { validateRows, type RowContract, type SoftIssueSink } from "./validate-rows";

/** Error-shaped values from another copy of LumaToolError (a bundled tool module). */
const isTypedError = (e: unknown): e is { code: string; message: string; retryable: boolean; details?: unknown } =>
  e instanceof LumaError ||
  (e !== null && typeof e === "object" && typeof (e as { code?: unknown }).code === "string" && typeof (e as { retryable?: unknown }).retryable === "boolean");

function wrapBridgeError(s: StatementRef, e: unknown): LumaError {
  const message = e instanceof Error ? e.message : typeof e === "string" ? e : "the bridge failed";
  if (isTypedError(e)) {
    return datasourceErrors.bridgeTypedError(s, e.code, message, e.retryable, e.details);
  }
  const driverCode = driverCodeOf(e);
  const kind = driverErrorKind(driverCode);
  return datasourceErrors.bridgeFailed(s, kind.say ?? message, kind.retryable, driverCode);
}

export interface StatementRunnerDeps {
  decl: QueryDecl;
  sql: string;
  bridge: Bridge;
  schemas: SchemaTable;
  contract: RowContract;
  soft: SoftIssueSink;
}

export function statementRunner(d: StatementRunnerDeps): (input: Record<string, unknown>, signal: AbortSignal) => Promise<unknown> {
  const names = d.decl.params.map((p) => p.name);
  const s = d.contract.statement;
  return async (input, signal) => {
    const params = names.map((n) => (input[n] === undefined ? null : input[n]));
    // An int past 2^53 is already some other integer: binding it would look up the wrong row.
    for (let i = 0; i < params.length; i++) {
      const v = params[i];
      if (typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v)) throw datasourceErrors.unsafeParameter(s, names[i]);
    }
    let rows: unknown;
    try {
      rows = await d.bridge.run(d.sql, params, signal, s.kind);
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      throw wrapBridgeError(s, e);
    }
    return validateRows(d.contract, d.schemas, rows, d.soft);
  };
}

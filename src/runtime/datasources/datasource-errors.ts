/**
 * Every error about datasources, queries and commands, in one catalog. A runtime message
 * names the statement and its datasource (`Query 'top' (datasource 'Warehouse') …`);
 * every message is passed through credential redaction — driver messages included — and
 * none prints a URL read from the environment.
 */
import { runtimeError, startupError, type ErrorCode, type LumaError } from "../../diagnostics/luma-error";
import { redactSecrets } from "../../diagnostics/redact-secrets";
import type { DiagnosticCode } from "../../diagnostics/catalog";
import type { StatementKind } from "./bridge";

/** A statement as messages name it. */
export interface StatementRef {
  kind: StatementKind;
  name: string;
  datasource: string;
  /** Blanked out of the message. */
  secrets: readonly string[];
}

const title = (s: StatementRef) => `${s.kind === "query" ? "Query" : "Command"} '${s.name}' (datasource '${s.datasource}')`;
/** The catalog code of every reason a datasource has no usable bridge (`luma explain E0603`). */
const BRIDGE: { catalogCode: DiagnosticCode } = { catalogCode: "E0603" };

const fail = (s: StatementRef, code: ErrorCode | string, message: string, retryable: boolean, details: Record<string, unknown>) =>
  runtimeError(code as ErrorCode, redactSecrets(message, s.secrets), {
    retryable,
    details: { [s.kind]: s.name, datasource: s.datasource, ...details },
  });

export const datasourceErrors = {
  /** *exact* (spec §12), a startup error. */
  noBridge: (datasource: string): LumaError => startupError(`datasource '${datasource}' has no registered bridge.`, BRIDGE),
  envMissing: (datasource: string, variable: string): LumaError =>
    startupError(`datasource '${datasource}': environment variable ${variable} is not set.`, BRIDGE),
  /** The URL itself is never printed: it may hold a password. */
  unsupportedUrl: (datasource: string, from: string): LumaError =>
    startupError(`datasource '${datasource}': ${from} is not a "sqlite:PATH" or "postgres://…" URL.`, BRIDGE),

  /** The path is shown only when the program's own text holds it (not from url_env). */
  sqliteMissing: (datasource: string, path: string | undefined): LumaError =>
    startupError(
      `datasource '${datasource}': the SQLite file ${path ?? "its url names"} does not exist (add "?mode=rwc" to the url to create it).`,
      BRIDGE,
    ),

  bridgeFailed: (s: StatementRef, cause: string, retryable: boolean, driverCode?: string) =>
    fail(s, "TOOL_HANDLER_ERROR", `${title(s)} failed: ${cause}${driverCode ? ` (${driverCode})` : ""}`, retryable,
      driverCode ? { driver_code: driverCode } : {}),
  /** A typed error the bridge threw keeps its code, retryable and details. */
  bridgeTypedError: (s: StatementRef, code: string, cause: string, retryable: boolean, details: unknown) =>
    runtimeError(code as ErrorCode, redactSecrets(`${title(s)} failed: ${cause}`, s.secrets), { retryable, details }),
  notRows: (s: StatementRef, got: string) =>
    fail(s, "TOOL_OUTPUT_INVALID", `${title(s)}: the bridge must return an array of rows, got ${got}.`, false, {}),
  rowNotObject: (s: StatementRef, index: number, got: string) =>
    fail(s, "QUERY_ROW_INVALID", `${title(s)}: row ${index} must be an object, got ${got}.`, false, { row: index, rule: "type" }),
  rowInvalid: (s: StatementRef, index: number, field: string, rule: string, messages: string[], issues: unknown) =>
    fail(s, "QUERY_ROW_INVALID", `${title(s)} returned an invalid row ${index}: ${messages.join(" ")}`, false, {
      row: index,
      field,
      rule,
      issues,
    }),
  /** A 64-bit integer no JSON number holds exactly: never passed on as a different number. */
  unsafeInteger: (s: StatementRef, index: number, field: string) =>
    fail(
      s,
      "QUERY_ROW_INVALID",
      `${title(s)} returned an invalid row ${index}: column '${field}' holds an integer beyond ±(2^53−1), which a number cannot hold exactly; declare the field \`string\` to read its exact digits.`,
      false,
      { row: index, field, rule: "safe_integer" },
    ),
  /** An int parameter that is no longer the number it was meant to be (computed past 2^53). */
  unsafeParameter: (s: StatementRef, param: string) =>
    runtimeError("TOOL_INPUT_INVALID", `${title(s)}: parameter '${param}' is an integer beyond ±(2^53−1), which is not exact; pass it as a string of digits.`, {
      retryable: false,
      details: { [s.kind]: s.name, datasource: s.datasource, param, rule: "safe_integer" },
    }),
  noRow: (s: StatementRef, type: string) =>
    fail(s, "QUERY_ROW_INVALID", `${title(s)} returned no row; its result ${type} needs one.`, false, { row: 0, rule: "required" }),
  timeout: (s: StatementRef, ms: number) => fail(s, "TOOL_TIMEOUT", `${title(s)} timed out after ${ms} ms.`, true, { timeout_ms: ms }),
};

/**
 * Datasources, queries and commands (spec §12): Luma owns the typed database contract, a
 * bridge talks to the database.
 *
 * - `resolveDatasourceBridges` — the startup check: a bridge for every datasource (module
 *   bridge first, then the built-in SQLite / Postgres clients), or exit 2.
 * - `statementToolPlans` — the queries and commands as plans for the tool pipeline
 *   (`createToolInvoker({ …, statements })`), so `query x(…)`, `command y(…)` and model
 *   calls all run through the same steps.
 * - `statementDecl` / `statementToolDefinition` — for the native tool loop.
 */
export { resolveDatasourceBridges, type DatasourceBridges, type ResolveBridgesOptions } from "./resolve-bridges";
export { statementToolPlans, type StatementPlanDeps } from "./statement-plans";
export { statementDecl, statementToolDefinition, type StatementToolDefinition } from "./statement-tools";

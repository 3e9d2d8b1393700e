/**
 * The startup check of statement texts for the built-in bridges (spec §12, extension):
 * SQL mistakes that would otherwise surface only when the statement runs — or never —
 * stop the program before anything runs (exit 2), naming the query or command:
 *
 * - more than one statement: SQLite's prepare keeps the first and drops the rest without a
 *   word; a statement is the unit (spec §12: no transaction surface);
 * - a placeholder past the declared parameters (`$2` with one parameter binds NULL in
 *   SQLite, garbles the bind message in Postgres);
 * - a parameter no placeholder takes (Postgres refuses the bind; in SQLite the value
 *   would go nowhere, or shift the `?`s).
 *
 * Only the text is read (sql-text-scan.ts), no database: a table the program creates
 * at run time is fine. A module bridge speaks a dialect Luma does not know: not checked.
 */
import type { Program, QueryDecl } from "../../syntax/ast";
import type { Bridge } from "./bridge";
import { scanSql } from "./sql-text-scan";
import { readStatementEntries } from "./statement-entries";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function problemsOf(decl: QueryDecl, datasource: string, sql: string, bridge: Bridge): string[] {
  if (bridge.origin === "module") return [];
  const what = `${decl.kind === "Query" ? "query" : "command"} '${decl.name}' (datasource '${datasource}')`;
  const scan = scanSql(sql, bridge.origin);
  const out: string[] = [];
  if (scan.statements > 1) {
    out.push(`${what}: its sql holds ${scan.statements} statements; a ${decl.kind === "Query" ? "query" : "command"} runs exactly one (write one statement, or call a stored procedure).`);
  }
  const n = decl.params.length;
  const params = n === 0 ? "no parameters" : `${plural(n, "parameter")} (${decl.params.map((p) => p.name).join(", ")})`;
  for (const [index, text] of scan.placeholders) {
    if (index > n || index < 1) out.push(`${what}: its sql uses placeholder ${text} (parameter ${index}), but it declares ${params}.`);
  }
  decl.params.forEach((p, i) => {
    if (!scan.placeholders.has(i + 1)) out.push(`${what}: parameter '${p.name}' ($${i + 1}) is not used by its sql.`);
  });
  return out;
}

/** One line per problem, every statement of a built-in bridge at once. */
export function statementTextProblems(program: Program, bridgeOf: (datasource: string) => Bridge | undefined): string[] {
  const out: string[] = [];
  for (const decl of program.decls) {
    if (decl.kind !== "Query" && decl.kind !== "Command") continue;
    const { source, sql } = readStatementEntries(decl);
    const bridge = source === undefined ? undefined : bridgeOf(source);
    if (bridge !== undefined && sql !== undefined) out.push(...problemsOf(decl, source!, sql, bridge));
  }
  return out;
}

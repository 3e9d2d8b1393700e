/**
 * Whether a datasource's statements stay on this machine: a `url` of SQLite reads a local
 * file; any other (a database server, `url_env`, a module bridge) may reach past it. `luma
 * mcp` tells MCP clients this as a query's `openWorldHint` (src/mcp/served-tools.ts).
 */
import { readKeys } from "../../language/keys/key-spec";
import { DATASOURCE_KEYS } from "../../language/keys/datasource-keys";
import type { DatasourceDecl, Program } from "../../syntax/ast";

export function isLocalDatasource(program: Program, name: string | undefined): boolean {
  const decl = program.decls.find((d): d is DatasourceDecl => d.kind === "Datasource" && d.name === name);
  const url = decl && readKeys(DATASOURCE_KEYS, decl.entries).url;
  return typeof url === "string" && url.startsWith("sqlite:");
}

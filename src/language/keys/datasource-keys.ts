/**
 * The keys of a `datasource` block (spec §12 extension: a built-in SQLite or Postgres
 * client as the bridge): the one table the checker, the runtime's bridge resolution
 * (`resolve-bridges.ts`), completion and the first-hour hints read. Both empty is fine (a
 * module bridge); both set is a rule file's error.
 */
import { envName, str } from "../value-kinds";
import { keyTable } from "./key-spec";

export const DATASOURCE_KEYS = keyTable({
  url: { kind: str, doc: 'The database: "sqlite:./data.db" or "postgres://…" (a module bridge wins).' },
  url_env: { kind: envName, doc: "The environment variable holding the database URL." },
});

/**
 * `luma build` refuses a literal URL that carries a password. Everything in the config and
 * the program is embedded in the built file, so `"url": "postgres://app:secret@db/app"` (an
 * idempotency store, a journal, an MCP server) or `datasource Db { url: "postgres://…" }`
 * would put the password in the executable's bytes — while docs/build.md promises that store
 * and datasource URLs are read at run time. The fix is the other key: `url_env` names an
 * environment variable the agent reads when it starts (for an MCP server, `headers_env`).
 *
 * A password is the URL's userinfo password, or a `password=` query parameter (libpq reads
 * one). The message names where the URL is, never the URL: it holds the secret.
 */
import type { LumaConfig } from "../config/config-types";
import { startupError } from "../diagnostics/luma-error";
import { DATASOURCE_KEYS } from "../language/keys/datasource-keys";
import { entryOf } from "../language/keys/key-spec";
import type { Program } from "../syntax/ast";

const USERINFO_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*:[^/?#@]+@/i;

/** Whether `url` carries a password (userinfo or a `password` query parameter). */
export function urlHasPassword(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.password !== "") return true;
    for (const [key, value] of u.searchParams) if (key.toLowerCase() === "password" && value !== "") return true;
    return false;
  } catch {
    // Not a URL the WHATWG parser takes: judge its text, so an odd spelling is no way around.
    return USERINFO_PASSWORD.test(url) || /[?&]password=[^&#]/i.test(url);
  }
}

interface LiteralUrl {
  /** Where it is, as the user would look for it. */
  where: string;
  url: string;
  /** The key that keeps the secret out of the file. */
  instead: string;
}

/** `file:line:col` of an offset in the program's source. */
function positionOf(file: string, source: string, offset: number): string {
  const before = source.slice(0, offset).split("\n");
  return `${file}:${before.length}:${before[before.length - 1].length + 1}`;
}

function literalUrls(program: Program, source: string, config: LumaConfig | undefined, configPath: string | undefined): LiteralUrl[] {
  const found: LiteralUrl[] = [];
  const inConfig = configPath ?? "luma.config.json";
  if (config?.idempotency_store?.url !== undefined) {
    found.push({ where: `${inConfig}: idempotency_store.url`, url: config.idempotency_store.url, instead: "url_env" });
  }
  if (config?.journal?.url !== undefined) found.push({ where: `${inConfig}: journal.url`, url: config.journal.url, instead: "url_env" });
  for (const [name, server] of Object.entries(config?.mcp_servers ?? {})) {
    if (server.url !== undefined) found.push({ where: `${inConfig}: mcp_servers.${name}.url`, url: server.url, instead: "headers_env" });
  }
  for (const decl of program.decls) {
    if (decl.kind !== "Datasource") continue;
    const entry = entryOf(DATASOURCE_KEYS, decl.entries, "url");
    if (entry === undefined || entry.value.kind !== "Lit" || typeof entry.value.value !== "string") continue;
    const at = positionOf(entry.value.span.file, source, entry.value.span.start);
    found.push({ where: `${at}: datasource ${decl.name} url`, url: entry.value.value, instead: "url_env" });
  }
  return found;
}

/** Throws E0709 naming every literal URL with a password, and the key to use instead. */
export function refuseLiteralCredentials(program: Program, source: string, config: LumaConfig | undefined, configPath: string | undefined): void {
  const withPassword = literalUrls(program, source, config, configPath).filter((u) => urlHasPassword(u.url));
  if (withPassword.length === 0) return;
  const lines = withPassword.map((u) =>
    u.instead === "url_env"
      ? `  ${u.where}: put the URL in an environment variable and name it with "url_env"`
      : `  ${u.where}: keep credentials out of the URL and pass them with "headers_env"`,
  );
  throw startupError(
    `luma build: a literal URL with a password would be embedded in the executable (everything in the config and the program is); refusing to build:\n${lines.join("\n")}`,
    { catalogCode: "E0709" },
  );
}

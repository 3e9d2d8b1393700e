/**
 * §12 (extension): a datasource names its database with `url:` or `url_env:`, not both;
 * a literal `url` must be one the built-in bridges speak, `sqlite:PATH` or
 * `postgres://…`. The URL itself never appears in the message: it may hold a password.
 * Only string values are looked at: a value of the wrong kind is config-keys' error.
 */
import type { Entry } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

const BUILTIN_URL = /^(sqlite:.+|postgres(ql)?:\/\/.+)$/i;

const stringOf = (e: Entry | undefined): string | undefined =>
  e !== undefined && e.value.kind === "Lit" && typeof e.value.value === "string" ? e.value.value : undefined;

export function dbDatasourceUrl(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) {
    if (decl.kind !== "Datasource") continue;
    const url = ctx.entry(decl.entries, "url");
    const urlEnv = ctx.entry(decl.entries, "url_env");
    const urlText = stringOf(url);
    if (urlText !== undefined && stringOf(urlEnv) !== undefined) ctx.report(messages.datasourceUrlTwice(decl.name), urlEnv!.keySpan);
    if (urlText !== undefined && !BUILTIN_URL.test(urlText)) ctx.report(messages.datasourceUrlScheme(decl.name), url!.value.span);
  }
}

/**
 * The built-in bridges' URLs (spec §12, extension): `sqlite:PATH` (relative to the
 * program's directory; `sqlite::memory:` for an in-memory database; `?mode=ro` opens the
 * file read-only, `?mode=rwc` creates it when missing — otherwise a missing file is a
 * startup error, so a typo in the path never silently opens a new, empty database) and `postgres://…` / `postgresql://…`. Anything else is not a built-in.
 * Where a URL points, only: its secrets are the URL setting's (src/config/url-setting.ts).
 */
import { isAbsolute, resolve } from "node:path";

export type BuiltinTarget =
  | { kind: "sqlite"; path: string; readonly: boolean; create: boolean }
  | { kind: "postgres"; url: string };

const SQLITE = /^sqlite:/i;
const POSTGRES = /^postgres(ql)?:\/\//i;

/** Where a URL points, or undefined for a scheme no built-in bridge speaks. */
export function parseDatasourceUrl(url: string, programDir: string): BuiltinTarget | undefined {
  if (POSTGRES.test(url)) return { kind: "postgres", url };
  if (!SQLITE.test(url)) return undefined;
  let rest = url.slice("sqlite:".length);
  // `sqlite://file.db` and `sqlite:///abs/file.db` are common spellings of the same thing.
  if (rest.startsWith("//")) rest = rest.slice(2);
  let mode: string | null = null;
  const query = rest.indexOf("?");
  if (query >= 0) {
    mode = new URLSearchParams(rest.slice(query + 1)).get("mode");
    rest = rest.slice(0, query);
  }
  if (rest === "") return undefined;
  const readonly = mode === "ro";
  const create = mode === "rwc";
  if (rest === ":memory:") return { kind: "sqlite", path: ":memory:", readonly, create };
  return { kind: "sqlite", path: isAbsolute(rest) ? rest : resolve(programDir, rest), readonly, create };
}


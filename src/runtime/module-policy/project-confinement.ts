/**
 * "Loading modules outside the project directory" is always forbidden under strict (spec
 * §10). Checked twice: on the path as written (`../x`, `/abs`, a `file:` URL) and on the real
 * path after resolution, so a symlink inside the project that points out is refused too.
 * The refusal names the resolved path; the inside test itself is src/config/inside-directory.ts.
 */
import { realpathSync } from "node:fs";
import { relative } from "node:path";

const realDirs = new Map<string, string>();

/** The project directory's real path (cached: it is asked for every specifier). */
export function realProjectDir(projectDir: string): string {
  let real = realDirs.get(projectDir);
  if (real === undefined) {
    try {
      real = realpathSync(projectDir);
    } catch {
      real = projectDir;
    }
    realDirs.set(projectDir, real);
  }
  return real;
}


/** The real path of an existing file; the path itself when it cannot be resolved. */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** How messages show a file of the project: relative to it. */
export const projectRelative = (projectDir: string, path: string): string => relative(realProjectDir(projectDir), path) || ".";

/**
 * Whether a path lies inside a directory (the directory itself included), decided on the
 * lexical relative path. A name that merely starts with two dots — `..cache/x`, `...` —
 * is a file of the directory; only `..` itself or a path through it (`../x`) leaves.
 * The one test behind "must stay inside the project" (config `dependency_root`) and the
 * strict policy's project confinement (spec §10), so the two cannot disagree.
 */
import { isAbsolute, relative, sep } from "node:path";

export function isInsideDirectory(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  if (rel === "") return true;
  const leaves = rel === ".." || rel.startsWith("../") || rel.startsWith(`..${sep}`);
  // `relative` answers an absolute path when there is no relative one (another drive on Windows).
  return !leaves && !isAbsolute(rel);
}

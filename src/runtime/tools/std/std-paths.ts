/**
 * Confining a path of read_file, list_dir and write_file to `std.files_root`: the path is
 * relative, has no `..` segment and no NUL byte, and what it names — after every symlink is
 * followed, at the moment of the call — lies under the root's own real path. A symlink
 * inside the root that points out of it is refused like `..` is; one created after
 * `luma check` is seen, since nothing is resolved before the call. The file itself is opened
 * without following a symlink; a directory on the way swapped for one between the check and
 * the open of the same call is not caught (there is no openat in Node's fs).
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { isInsideDirectory } from "../../../config/inside-directory";
import { LumaToolError } from "../../../luma-module";
import { refused, type StdSettings } from "./std-settings";

const ROOT_KEY = "std.files_root";

/** A file error that is no refusal: missing, not a directory, too large… (STD_FILE_ERROR). */
export const fileError = (tool: string, path: string, problem: string, reason: string): LumaToolError =>
  new LumaToolError({ code: "STD_FILE_ERROR", message: `Tool '${tool}': ${JSON.stringify(path)} ${problem}.`, details: { path, reason } });

/** The lexical rules, before the disk is asked anything. */
function checkShape(tool: string, path: string): void {
  const shown = JSON.stringify(path);
  if (path.includes("\0")) throw refused(tool, `the path ${shown} (it holds a NUL byte)`, ROOT_KEY);
  if (isAbsolute(path) || path.startsWith("\\") || /^[A-Za-z]:/.test(path)) throw refused(tool, `the absolute path ${shown} (paths are relative to files_root)`, ROOT_KEY);
  if (path.split(/[\\/]/).includes("..")) throw refused(tool, `the path ${shown} (it leaves files_root through "..")`, ROOT_KEY);
}

const realRoot = async (tool: string, settings: StdSettings): Promise<string> => {
  try {
    return await realpath(settings.filesRoot);
  } catch {
    throw fileError(tool, ".", `cannot be read: files_root ${settings.filesRoot} does not exist`, "no_root");
  }
};

/** The real path of an existing file or directory under the root; symlinks followed, then judged. */
export async function confinedExisting(tool: string, settings: StdSettings, path: string, shown = path): Promise<string> {
  checkShape(tool, path);
  const root = await realRoot(tool, settings);
  let real: string;
  try {
    real = await realpath(join(root, path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw fileError(tool, path, code === "ENOENT" ? "does not exist" : code === "ENOTDIR" ? "goes through a file as if it were a directory" : "cannot be resolved", code === "ENOENT" ? "not_found" : "unresolvable");
  }
  // Both are real paths: the project's one inside test (config/inside-directory.ts) judges them.
  if (!isInsideDirectory(root, real)) throw refused(tool, `the path ${JSON.stringify(shown)} (a symlink leads out of files_root)`, ROOT_KEY);
  return real;
}

/**
 * Where a file is to be written: the real path of its (existing) directory, judged, joined
 * with its own name. The name itself is not followed: the write replaces a symlink there
 * rather than writing through it (std-file-tools.ts renames a new file into place).
 */
export async function confinedNew(tool: string, settings: StdSettings, path: string): Promise<string> {
  checkShape(tool, path);
  const parts = path.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  const name = parts.pop();
  if (name === undefined) throw fileError(tool, path, "names the root directory, not a file", "is_directory");
  const dir = await confinedExisting(tool, settings, parts.length === 0 ? "." : parts.join("/"), path);
  return join(dir, name);
}

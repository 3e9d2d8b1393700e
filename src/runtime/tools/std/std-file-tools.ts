/**
 * read_file, list_dir and write_file of luma:std (docs/language/std-tools.md): each path is
 * confined first (`std-paths.ts`), reads are bounded (`STD_MAX_BYTES`) and text is UTF-8.
 * write_file writes a new file beside the target and renames it into place: a reader never
 * sees half a file, and a symlink at the target is replaced, never written through.
 * Idempotency by `request_id` is the pipeline's (the contract declares it), not this file's.
 */
import { lstat, open, readdir, rename, rm, stat } from "node:fs/promises";
import { constants } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { ToolHandler } from "../../../luma-module";
import { confinedExisting, confinedNew, fileError } from "./std-paths";
import { STD_MAX_BYTES, type StdSettings } from "./std-settings";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

export const readFileTool = (settings: StdSettings): ToolHandler => async (input: { path: string }) => {
  const real = await confinedExisting("read_file", settings, input.path);
  // O_NOFOLLOW: the last component cannot have become a symlink since it was resolved.
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW).catch((e: NodeJS.ErrnoException) => {
    throw fileError("read_file", input.path, `cannot be opened (${e.code ?? e.message})`, "unreadable");
  });
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw fileError("read_file", input.path, "is a directory (list_dir lists one)", "is_directory");
    if (!info.isFile()) throw fileError("read_file", input.path, "is not a regular file", "not_a_file");
    if (info.size > STD_MAX_BYTES) throw fileError("read_file", input.path, `is ${info.size} bytes, more than the ${STD_MAX_BYTES} read_file reads`, "too_large");
    const bytes = new Uint8Array(info.size);
    const { bytesRead } = await handle.read(bytes, 0, info.size, 0);
    let text: string;
    try {
      text = UTF8.decode(bytes.subarray(0, bytesRead));
    } catch {
      throw fileError("read_file", input.path, "is not UTF-8 text", "not_text");
    }
    return { path: input.path, text, bytes: bytesRead };
  } finally {
    await handle.close();
  }
};

type EntryKind = "file" | "dir" | "other";

export const listDirTool = (settings: StdSettings): ToolHandler => async (input: { path: string }) => {
  const real = await confinedExisting("list_dir", settings, input.path);
  if (!(await stat(real)).isDirectory()) throw fileError("list_dir", input.path, "is not a directory", "not_a_directory");
  const names = (await readdir(real)).sort();
  const entries = await Promise.all(
    names.map(async (name) => {
      // lstat: a symlink is "other" — listing never follows it (read_file judges it when read).
      const info = await lstat(join(real, name)).catch(() => undefined);
      const kind: EntryKind = info?.isFile() ? "file" : info?.isDirectory() ? "dir" : "other";
      return { name, kind, bytes: kind === "file" ? info!.size : 0 };
    }),
  );
  return { entries };
};

export const writeFileTool = (settings: StdSettings): ToolHandler => async (input: { path: string; text: string; request_id: string }) => {
  const target = await confinedNew("write_file", settings, input.path);
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw fileError("write_file", input.path, "is a directory", "is_directory");
  const data = new TextEncoder().encode(input.text);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.luma-tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw fileError("write_file", input.path, `cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, "unwritable");
  }
  return { path: input.path, bytes: data.byteLength };
};

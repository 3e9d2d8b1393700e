/**
 * Replaces a file so that a crash at any moment leaves either the old content or the new,
 * never a mix: write a temp file in the same directory, fsync it, rename it over the
 * target (atomic on POSIX), then fsync the directory so the rename itself is on disk.
 *
 * Temp files are named `<target>.<pid>.<random>.tmp`; one left by a crash is removed when
 * the store next opens (see `staleTempFiles`).
 *
 * Two savings for a caller that writes the same target again and again (the file store):
 * - `dirFd`, the directory opened once and kept: fsync of any descriptor of a directory
 *   syncs that directory, so an open + close per write is not needed. (It names the
 *   directory the store opened; the store's lock and claim table are held open in that
 *   same directory too, so the store already relies on it staying in place.)
 * - The new file's descriptor is returned still open, so the caller can keep the version
 *   it just wrote pinned (envelope-pin.ts) instead of closing it now and reopening it later.
 */
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { crashPoint } from "./crash-points";

const randomSuffix = (): string => Math.random().toString(36).slice(2, 10);

export const fsyncDirectory = (dir: string): void => {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/** Writes `bytes` durably over `target` and returns the new file's descriptor, open: the caller closes it. */
export const writeFileDurably = (target: string, bytes: Uint8Array | string, dirFd?: number): number => {
  const temp = `${target}.${process.pid}.${randomSuffix()}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    const data = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    crashPoint("after-temp-write");
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(temp);
    throw e;
  }
  try {
    crashPoint("before-rename");
    renameSync(temp, target);
    crashPoint("after-rename");
    if (dirFd === undefined) fsyncDirectory(dirname(target));
    else fsyncSync(dirFd);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
};

/** Temp files of `target` whose writer process is gone (it crashed mid-write). */
export const staleTempFiles = (target: string, isAlive: (pid: number) => boolean): string[] => {
  const dir = dirname(target);
  const prefix = basename(target) + ".";
  const stale: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = Number(name.slice(prefix.length).split(".")[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) stale.push(join(dir, name));
  }
  return stale;
};

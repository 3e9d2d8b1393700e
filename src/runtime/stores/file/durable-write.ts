/**
 * Replaces a file so that a crash at any moment leaves either the old content or the new,
 * never a mix: write a temp file in the same directory, fsync it, rename it over the
 * target (atomic on POSIX), then fsync the directory so the rename itself is on disk.
 *
 * Temp files are named `<target>.<pid>.<random>.tmp`; one left by a crash is removed when
 * the store next opens (see `staleTempFiles`). A temp file is created exclusively and
 * never through a link (O_CREAT|O_EXCL|O_NOFOLLOW): a name planted in the directory —
 * a symlink to some other file — makes the write fail instead of writing through it; the
 * rename then replaces the target's directory entry, never a link's target.
 *
 * `probeWritable` is the same steps without the rename, run when a store opens and has
 * nothing to write yet: a directory (or target) that cannot be written fails the program
 * at start-up, before any handler runs, instead of failing a call after its handler ran.
 *
 * Two savings for a caller that writes the same target again and again (the file store):
 * - `dirFd`, the directory opened once and kept: fsync of any descriptor of a directory
 *   syncs that directory, so an open + close per write is not needed. (It names the
 *   directory the store opened; the store's lock and claim table are held open in that
 *   same directory too, so the store already relies on it staying in place.)
 * - The new file's descriptor is returned still open, so the caller can keep the version
 *   it just wrote pinned (envelope-pin.ts) instead of closing it now and reopening it later.
 */
import { accessSync, closeSync, constants, existsSync, fsyncSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { crashPoint } from "../../base/crash-points";

const randomSuffix = (): string => Math.random().toString(36).slice(2, 10);

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

const tempName = (target: string): string => `${target}.${process.pid}.${randomSuffix()}.tmp`;

export const unlinkQuietly = (path: string): void => {
  try {
    unlinkSync(path);
  } catch {
    // already gone, or the directory refuses: the next open purges it (staleTempFiles)
  }
};

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
  const temp = tempName(target);
  const fd = openSync(temp, TEMP_FLAGS, 0o600);
  try {
    const data = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    crashPoint("after-temp-write");
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw e;
  }
  let renamed = false;
  try {
    crashPoint("before-rename");
    renameSync(temp, target);
    renamed = true;
    crashPoint("after-rename");
    if (dirFd === undefined) fsyncDirectory(dirname(target));
    else fsyncSync(dirFd);
  } catch (e) {
    closeSync(fd);
    if (!renamed) unlinkQuietly(temp); // a refused rename must not leave the temp file behind
    throw e;
  }
  return fd;
};

/**
 * Throws (the file system's error) unless a durable write of `target` could succeed now: a
 * temp file can be created and removed in its directory, and an existing target may be
 * replaced. access(2) is asked about the target rather than the permission bits read,
 * because it also answers for root, a read-only mount (EROFS) and an immutable file (EPERM).
 */
export const probeWritable = (target: string): void => {
  const temp = tempName(target);
  closeSync(openSync(temp, TEMP_FLAGS, 0o600));
  unlinkSync(temp);
  if (existsSync(target)) accessSync(target, constants.W_OK);
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

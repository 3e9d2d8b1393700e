/**
 * Replaces a file so that a crash at any moment leaves either the old content or the new,
 * never a mix: write a temp file in the same directory, fsync it, rename it over the
 * target (atomic on POSIX), then fsync the directory so the rename itself is on disk.
 *
 * Temp files are named `<target>.<pid>.<random>.tmp`; one left by a crash is removed when
 * the store next opens (see `staleTempFiles`).
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

export const writeFileDurably = (target: string, bytes: Uint8Array | string): void => {
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
  closeSync(fd);
  crashPoint("before-rename");
  renameSync(temp, target);
  crashPoint("after-rename");
  fsyncDirectory(dirname(target));
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

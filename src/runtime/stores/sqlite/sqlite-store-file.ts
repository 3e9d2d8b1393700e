/**
 * How the SQLite store trusts its database file before SQLite reads it, and how it creates
 * one so that "an empty file" can only mean damage.
 *
 * SQLite takes a 0-byte file for a new, empty database: a store truncated to nothing would
 * start empty and run again every call it recorded. So Luma never leaves a 0-byte file at
 * the store's path itself — a new store is built under a temp name (schema, WAL mode) and
 * linked into place with link(2), which never replaces an existing entry (two processes
 * creating the store at once: the first link wins, the other uses it). An empty file found
 * at the path was therefore not made by Luma, and is refused like a corrupt one.
 *
 * Also refused, before SQLite opens anything: a symbolic link (and SQLite opens the path
 * with SQLITE_OPEN_NOFOLLOW, so a link swapped in after the check is refused too), a FIFO
 * (whose read would block start-up), a device or a directory. A file SQLite reports as not
 * a database or as malformed is refused the same way (`isUntrustedDatabase`). Every
 * refusal is a startup error naming the file, which is left as it is.
 */
import { Database, constants } from "bun:sqlite";
import { linkSync, lstatSync, unlinkSync } from "node:fs";
import { startupError } from "../../../diagnostics/luma-error";
import { storeRefusal } from "../store-header";

/** Open flags for an existing store: read-write, never created here, never through a link. */
export const OPEN_EXISTING = constants.SQLITE_OPEN_READWRITE | constants.SQLITE_OPEN_NOFOLLOW;

const refuse = (shown: string, problem: string) => startupError(storeRefusal.untrusted(shown, problem), { catalogCode: "E0609" });

/** Whether a store file exists at `path`; throws (refused) when what is there cannot be a store. */
export const existingStoreFile = (path: string, shown: string): boolean => {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return false;
  if (stat.isSymbolicLink()) throw refuse(shown, "is a symbolic link, which the store does not follow");
  if (!stat.isFile()) {
    const kind = stat.isFIFO() ? "a FIFO" : stat.isCharacterDevice() || stat.isBlockDevice() ? "a device" : stat.isDirectory() ? "a directory" : "a special file";
    throw refuse(shown, `is ${kind}, not a regular file`);
  }
  if (stat.size === 0) throw refuse(shown, "is empty (0 bytes: Luma never leaves its store file empty)");
  return true;
};

/** Builds a new store under a temp name with `init` and links it in at `path` (unless another process did first). */
export const createStoreFile = (path: string, init: (db: Database) => void): void => {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    const db = new Database(temp, constants.SQLITE_OPEN_READWRITE | constants.SQLITE_OPEN_CREATE | constants.SQLITE_OPEN_NOFOLLOW);
    try {
      init(db);
    } finally {
      db.close(); // checkpoints and removes the temp's -wal and -shm
    }
    try {
      linkSync(temp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e; // created by another process meanwhile: use it
    }
  } finally {
    for (const leftover of [temp, `${temp}-wal`, `${temp}-shm`]) {
      try {
        unlinkSync(leftover);
      } catch {
        // not there
      }
    }
  }
};

/** SQLite's own word that the file is not a database, or a damaged one. */
export const isUntrustedDatabase = (e: unknown): boolean => {
  const code = String((e as { code?: unknown }).code ?? "");
  return code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT");
};

export const untrustedDatabase = (shown: string, e: unknown) =>
  refuse(shown, `is not a readable SQLite database (${(e as Error).message})`);

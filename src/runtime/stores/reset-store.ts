/**
 * `luma store reset`: the deliberate way to start a file or sqlite idempotency store over
 * after it was refused (corrupt, tampered, empty, not a regular file, too large). The store
 * never resets itself — an empty store runs again every call the old one recorded — so
 * this is an act with a name, asked for with `--yes`.
 *
 * Nothing is deleted: the store's file is renamed aside to `<path>.reset-<time>` (sqlite:
 * with its `-wal` and `-shm`, which belong to it), so what it held can still be looked at.
 * The file store's `.lock` and `.claims` stay: they hold no records. Whatever is at the
 * path is moved, a symbolic link or a FIFO included (the link itself, never its target).
 * The file store's rename happens under its lock (file-lock.ts), so a write in progress
 * ends first; processes still running keep going on what they hold in memory, so the
 * command's message asks to stop them first. Network stores (postgres, redis) are reset
 * with their own tools, not here.
 */
import { lstatSync, renameSync } from "node:fs";
import { resolve } from "node:path";
import type { IdempotencyStoreConfig } from "../../config/config-types";
import { isLumaError, startupError } from "../../diagnostics/luma-error";
import { FileLock } from "./file/file-lock";
import { DEFAULT_FILE_STORE_PATH, DEFAULT_SQLITE_STORE_PATH } from "./open-idempotency-store";

export interface StoreFiles {
  backend: "file" | "sqlite";
  /** The path as configured (how messages name it). */
  shown: string;
  path: string;
  /** Files moved along with it: sqlite's -wal and -shm. */
  companions: string[];
}

/** The configured store's files; a startup error for a store that has none to reset. */
export const storeFilesOf = (config: IdempotencyStoreConfig | undefined, projectDir: string, configName: string): StoreFiles => {
  const backend = config?.backend ?? "memory";
  if (backend === "memory") {
    throw startupError(`${configName} configures no file or sqlite idempotency_store: there is no store file to reset.`, { catalogCode: "E0608" });
  }
  if (backend !== "file" && backend !== "sqlite") {
    throw startupError(
      `luma store reset moves a file or sqlite store aside; the ${backend} store of ${configName} is reset with ${backend}'s own tools (its tables or keys).`,
      { catalogCode: "E0608" },
    );
  }
  const shown = config!.path ?? (backend === "file" ? DEFAULT_FILE_STORE_PATH : DEFAULT_SQLITE_STORE_PATH);
  const path = resolve(projectDir, shown);
  return { backend, shown, path, companions: backend === "sqlite" ? [`${path}-wal`, `${path}-shm`] : [] };
};

const exists = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** Where `files` would go now; undefined when there is no store file to move. */
export const resetTarget = (files: StoreFiles, now: Date): string | undefined =>
  exists(files.path) ? `${files.path}.reset-${now.toISOString().replace(/[:.]/g, "-")}` : undefined;

/** Renames the store (and its companions) aside to `aside`; a failure is a startup error naming the store. */
export const moveStoreAside = (files: StoreFiles, aside: string): void => {
  const move = () => {
    renameSync(files.path, aside);
    for (const companion of files.companions) {
      if (exists(companion)) renameSync(companion, aside + companion.slice(files.path.length));
    }
  };
  try {
    if (files.backend === "sqlite") return move();
    const lock = new FileLock(`${files.path}.lock`);
    try {
      lock.with(move);
    } finally {
      lock.close();
    }
  } catch (e) {
    if (isLumaError(e)) throw e;
    throw startupError(`Idempotency store ${files.shown}: cannot move it aside: ${(e as Error).message}`, { catalogCode: "E0608" });
  }
};

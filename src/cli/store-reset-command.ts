/**
 * Runs `luma store reset` (store-argv.ts): reads luma.config.json (--config, else the working
 * directory's), names the store file it would move and where, and moves it only with --yes
 * (runtime/stores/reset-store.ts). Exit 0 when done or when there is nothing to move;
 * exit 1 without --yes, so a script that forgot it does not read as a reset.
 */
import { CONFIG_FILE_NAME, loadConfig } from "../config";
import { moveStoreAside, resetTarget, storeFilesOf } from "../runtime/stores/reset-store";
import { EXIT } from "./report-error";
import type { StoreResetCommand } from "./store-argv";

export async function runStoreReset(cmd: StoreResetCommand, out: (line: string) => void, cwd: string): Promise<number> {
  const loaded = await loadConfig({ configPath: cmd.config, programDir: cwd, cwd });
  const files = storeFilesOf(loaded.config.idempotency_store, loaded.projectDir, cmd.config ?? CONFIG_FILE_NAME);
  const aside = resetTarget(files, new Date());
  if (aside === undefined) {
    out(`Idempotency store ${files.shown} does not exist: nothing to reset (the next run creates an empty store).`);
    return EXIT.ok;
  }
  if (!cmd.yes) {
    out(`luma store reset would move idempotency store ${files.shown} aside to ${aside}, and the next run would start an empty store:`);
    out("every call it records would run again. Stop every process using the store, then run: luma store reset --yes");
    return EXIT.runtime;
  }
  moveStoreAside(files, aside);
  out(`Moved idempotency store ${files.shown} aside to ${aside}; the next run starts an empty store.`);
  return EXIT.ok;
}

/**
 * Where `--trace FILE|-` events go: one JSON object per line, appended to FILE (created or
 * truncated at start) or written to stderr for `-`. Events are plain data built by the
 * runtime, which never puts secret values in them; this sink only serialises.
 */
import { closeSync, openSync } from "node:fs";
import { startupError } from "../diagnostics/luma-error";
import { fdWriter } from "./run/write-fully";

export interface TraceSink {
  emit(event: object): void;
  close(): void;
}

export function openTraceSink(target: string): TraceSink {
  let fd = 2;
  if (target !== "-") {
    try {
      fd = openSync(target, "w");
    } catch (e) {
      throw startupError(`cannot write the trace file ${target}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { catalogCode: "E0606" });
    }
  }
  // Written whole or not at all, like the program's output (a full disk names the trace file).
  const write = fdWriter(fd, fd === 2 ? "stderr" : `the trace file ${target}`);
  return {
    emit(event) {
      write(JSON.stringify({ ts: new Date().toISOString(), ...event }) + "\n");
    },
    close() {
      if (fd !== 2) closeSync(fd);
    },
  };
}

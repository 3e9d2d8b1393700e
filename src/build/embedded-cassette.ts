/**
 * The config's `replay` cassette, embedded in a built agent. A cassette named in the config
 * is part of the program — the recorded answers it runs with — not data it writes, so it
 * travels inside the executable like the config that names it: the agent started from any
 * directory replays the answers it was built with (the `luma init` app built with `luma
 * build` and started elsewhere failed with `cannot read cassette cassettes/main.jsonl`).
 *
 * It is read here by the runtime's own reader, against the config's directory, so a missing
 * or malformed cassette fails the build (exit 2) with the message `luma` gives at start-up.
 * `--replay FILE` at run time still reads FILE, against the working directory.
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { LoadedConfig } from "../config/config-types";
import { loadCassette } from "../runtime/providers/cassette";

export interface EmbeddedCassette {
  /** As the config names it (`"replay"`): messages and the manifest name it so. */
  path: string;
  text: string;
}

/** The config's cassette, read and checked; undefined when the config names none. `shownConfig`: the config as the user knows it. */
export function embeddedCassette(config: LoadedConfig, shownConfig: string | undefined): { cassette: EmbeddedCassette; file: string } | undefined {
  const configured = config.config.replay;
  if (configured === undefined || config.path === undefined) return undefined;
  const file = resolve(config.projectDir, configured);
  const namedBy = `"replay" in ${shownConfig ?? basename(config.path)}`;
  loadCassette({ path: file, label: configured, namedBy }); // unreadable or not a cassette: the build stops here
  return { cassette: { path: configured, text: readFileSync(file, "utf8") }, file };
}

/**
 * Opens the `"threads"` store of luma.config.json (issue #26 §1) at start-up, so a wrong key
 * or an unreachable server stops the program before its first statement (E0661). Only a
 * program that calls `thread(id)` opens it, and a backend's code loads only when configured.
 * Paths resolve against the project directory; the network backends take `url` or `url_env`
 * as the idempotency store does (store-connection.ts); encryption uses LUMA_IDEMPOTENCY_KEY.
 */
import { resolve } from "node:path";
import type { ThreadsConfig } from "../../../config/config-types";
import type { StoreRole } from "../store-connection";
import type { ThreadStore } from "./thread-message";

export const DEFAULT_THREADS_FILE = ".luma-threads.json";
export const DEFAULT_THREADS_SQLITE = ".luma-threads.sqlite";

const THREADS_ROLE: StoreRole = { setting: "threads", label: "threads store", settingsCode: "E0661", openCode: "E0661" };

export async function openThreadStore(config: ThreadsConfig, ctx: { projectDir: string; env: Record<string, string | undefined> }): Promise<ThreadStore> {
  const sealing = { encryption: config.encryption, passphrase: ctx.env.LUMA_IDEMPOTENCY_KEY };
  switch (config.backend) {
    case "file": {
      const { FileThreadStore } = await import("./file-thread-store");
      const shown = config.path ?? DEFAULT_THREADS_FILE;
      return FileThreadStore.open({ path: resolve(ctx.projectDir, shown), displayPath: shown, ...sealing });
    }
    case "sqlite": {
      const { SqliteThreadStore } = await import("./sqlite-thread-store");
      const shown = config.path ?? DEFAULT_THREADS_SQLITE;
      return SqliteThreadStore.open({ path: resolve(ctx.projectDir, shown), displayPath: shown, ...sealing });
    }
    case "postgres":
    case "redis": {
      const [{ connectionOf }, stores] = await Promise.all([import("../store-connection"), import("./network-thread-stores")]);
      const c = connectionOf(config.backend, config, ctx.env, THREADS_ROLE);
      return config.backend === "postgres" ? stores.PostgresThreadStore.open(c, sealing) : stores.RedisThreadStore.open(c, sealing);
    }
  }
}

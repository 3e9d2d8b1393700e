/**
 * The threads `POST /chat/{Agent}` talks in (issue #26 §4): the `useChat` id names one. With a
 * `"threads"` store in luma.config.json it is that store's thread — shared by every `luma
 * serve` process on the store (Postgres or Redis across machines), so a chat continued on
 * another process sees its whole history. Without one, threads live in this process's
 * memory for the server's life (lost when it stops, not shared).
 */
import { loadRunConfig } from "../runtime/run-config";
import type { StartOptions } from "../runtime/start-options";
import { openStoredThread, ThreadHandle } from "../runtime/interpreter/thread-values";
import type { ThreadStore } from "../runtime/stores/threads/thread-message";

export interface ChatThreads {
  /** Where chats are kept, for the start-up line. */
  readonly shown: string;
  open(id: string): Promise<ThreadHandle>;
  close(): Promise<void>;
}

export async function openChatThreads(
  programStore: ThreadStore | undefined,
  opts: Pick<StartOptions, "cwd" | "file" | "configPath" | "builtAgent" | "env">,
): Promise<ChatThreads> {
  let store = programStore;
  let own: ThreadStore | undefined;
  if (store === undefined) {
    // A built agent's embedded config (or its --config) too: run-config.ts.
    const { config } = await loadRunConfig(opts);
    if (config.config.threads) {
      const { openThreadStore } = await import("../runtime/stores/threads/open-thread-store");
      store = own = await openThreadStore(config.config.threads, { projectDir: config.projectDir, env: opts.env });
    }
  }
  if (store !== undefined) {
    const stored = store;
    return { shown: stored.shown, open: (id) => openStoredThread(stored, id), close: async () => void (await own?.close()) };
  }
  // A stored thread is read afresh by each ask; one in memory is this handle, kept by id.
  const memory = new Map<string, ThreadHandle>();
  return {
    shown: "memory (no \"threads\" store configured)",
    async open(id) {
      let t = memory.get(id);
      if (t === undefined) memory.set(id, (t = new ThreadHandle(undefined, undefined)));
      return t;
    },
    close: async () => memory.clear(),
  };
}

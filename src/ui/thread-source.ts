/**
 * The Threads view: the threads of the config's `threads` store (each store keeps every
 * thread's id beside its digest, sealed when encrypted, so it can list them; threads written
 * before that are opened by id), and one thread message by message. Read-only: the store is
 * opened, read and closed per request.
 */
import { openThreadStore } from "../runtime/stores/threads/open-thread-store";
import type { UiSources } from "./ui-sources";
import type { ListedThread } from "../runtime/stores/threads/thread-message";
import type { ThreadMessageView } from "./ui-types";

export async function listThreads(u: UiSources): Promise<{ store: string; threads: ListedThread[] } | undefined> {
  if (u.threads === undefined) return undefined;
  const store = await openThreadStore(u.threads.config, { projectDir: u.threads.projectDir, env: u.env });
  try {
    return { store: store.shown, threads: await store.list() };
  } finally {
    await store.close();
  }
}

export async function readThread(u: UiSources, id: string): Promise<{ store: string; messages: ThreadMessageView[] } | undefined> {
  if (u.threads === undefined) return undefined;
  const store = await openThreadStore(u.threads.config, { projectDir: u.threads.projectDir, env: u.env });
  try {
    const t = await store.load(id);
    return { store: store.shown, messages: t.messages.map(({ exchange: _exchange, ...m }) => m) };
  } finally {
    await store.close();
  }
}

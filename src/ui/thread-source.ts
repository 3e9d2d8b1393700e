/**
 * The Threads view: a stored conversation of the config's `threads` store, message by
 * message. A store keeps a thread under its id's digest (so its ids are not listed: the
 * store never reveals them), so the page opens a thread by its id. Read-only: the store is
 * opened, read and closed per request.
 */
import { openThreadStore } from "../runtime/stores/threads/open-thread-store";
import type { UiSources } from "./ui-sources";
import type { ThreadMessageView } from "./ui-types";

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

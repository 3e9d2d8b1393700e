/**
 * Thread values (issue #26 §1): `thread()` a new in-memory conversation, `thread(id)` one kept
 * in the configured store. A thread is an opaque handle — not JSON data: `t.messages` reads a
 * fresh copy of its messages (read-only: changing the copy changes nothing), `len(t)` counts
 * them, `print(t)` shows `{"thread":"<id>"}` (or `"memory"`), and two threads are equal only
 * when they are the same handle.
 *
 * `ask … in t` goes through `askIn`: it reads the thread (a stored one afresh, so another
 * process's exchanges are seen), sends its messages before the prompt, and appends the
 * exchange only when the ask succeeded. A stored append is a version check: when another
 * process appended since the read, the ask fails with THREAD_CONFLICT and appends nothing.
 * Each exchange is named by the run and the ask's step: a resumed journaled run, answering
 * the same ask from its journal, finds its exchange stored already — it sends the history
 * from before it (the same request the journal digested) and does not append it again.
 */
import { runtimeError } from "../../diagnostics/luma-error";
import type { ThreadMessage, ThreadStore } from "../stores/threads/thread-message";
import type { AskExchange, AskRequest, AskRunner } from "../ask/ask-types";
import { historyOf, messagesOf } from "../ask/thread-transcript";
import type { Value } from "./values";

const THREAD_MARK = Symbol.for("luma.thread");

export class ThreadHandle {
  readonly [THREAD_MARK] = true;
  #messages: ThreadMessage[];
  #version: number;

  constructor(
    readonly threadId: string | undefined,
    private readonly store: ThreadStore | undefined,
    messages: ThreadMessage[] = [],
    version = 0,
  ) {
    this.#messages = messages;
    this.#version = version;
  }

  /** `t.messages`: a copy without the exchange names, so nothing a program does changes the thread. */
  get messages(): Value {
    return this.#messages.map(({ exchange: _, ...m }) => structuredClone(m)) as unknown as Value;
  }

  get length(): number {
    return this.#messages.length;
  }

  toJSON(): { thread: string } {
    return { thread: this.threadId ?? "memory" };
  }

  /** One `ask … in t`: `req` without its thread part; `exchangeId` names this ask in this run. */
  async askIn(runner: AskRunner, req: AskRequest, historyLimit: number | undefined, agent: string, exchangeId: string): Promise<unknown> {
    if (this.store && this.threadId !== undefined) {
      const stored = await this.store.load(this.threadId);
      this.#messages = stored.messages;
      this.#version = stored.version;
    }
    const done = this.#messages.findIndex((m) => m.exchange === exchangeId);
    const before = done >= 0 ? this.#messages.slice(0, done) : this.#messages;
    let exchange: AskExchange | undefined;
    const value = await runner.ask({ ...req, thread: { history: historyOf(before, historyLimit), onExchange: (x) => (exchange = x) } });
    // Answered from the journal, appended by the run before: already in the thread.
    if (done >= 0 || !exchange) return value;
    const added = messagesOf(exchange, agent, new Date().toISOString(), exchangeId);
    if (this.store && this.threadId !== undefined) {
      if (!(await this.store.append(this.threadId, this.#version, added))) throw threadConflict(this.threadId, this.store.shown);
    }
    this.#messages = [...this.#messages, ...added];
    this.#version++;
    return value;
  }
}

export const isThread = (v: unknown): v is ThreadHandle => typeof v === "object" && v !== null && THREAD_MARK in v;

export const threadConflict = (id: string, shown: string) =>
  runtimeError("THREAD_CONFLICT", `Thread '${id}' in ${shown} was appended to by another ask while this one ran; nothing was appended. Ask again to continue from the thread as it now is.`, { retryable: true });

/** `thread(id)`: opened from the store and read now, so `t.messages` holds what it holds. */
export async function openStoredThread(store: ThreadStore, id: string): Promise<ThreadHandle> {
  const stored = await store.load(id);
  return new ThreadHandle(id, store, stored.messages, stored.version);
}

/**
 * A thread's messages as they are kept (issue #26 §1): provider-neutral, so a conversation
 * started on one provider family continues on another. One message per user prompt, one per
 * assistant turn (its text and/or tool calls), one per tool result; what `t.messages` reads.
 *
 * `exchange` (never shown by `t.messages`) names the ask that appended the message — the
 * run and the ask's step — so a resumed journaled run that answers the same ask again from
 * its journal finds its exchange already there and does not append it twice.
 */

export interface ThreadToolCall {
  id: string;
  name: string;
  args: unknown;
}

export interface ThreadMessage {
  role: "user" | "assistant" | "tool";
  text: string;
  tool_calls?: ThreadToolCall[];
  tool_call_id?: string;
  /** The agent whose ask wrote it (assistant and tool messages). */
  agent?: string;
  /** ISO-8601, when it was appended. */
  time: string;
  exchange?: string;
}

/** What a stored thread holds: its messages and a version that every append moves on. */
export interface StoredThread {
  messages: ThreadMessage[];
  version: number;
}

/** Where stored threads live (`"threads"` in luma.config.json): one backend per run. */
export interface ThreadStore {
  /** How messages name the store (`threads store "sqlite" (.luma-threads.sqlite)`). */
  readonly shown: string;
  load(id: string): Promise<StoredThread>;
  /**
   * Appends `messages` if the thread is still at `version`; false when another process
   * appended first (the caller's ask then fails with THREAD_CONFLICT and appends nothing).
   */
  append(id: string, version: number, messages: readonly ThreadMessage[]): Promise<boolean>;
  close(): Promise<void>;
}

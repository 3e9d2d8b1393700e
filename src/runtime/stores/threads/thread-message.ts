/**
 * A thread's messages as they are kept (issue #26 §1): provider-neutral, so a conversation
 * started on one provider family continues on another. One message per user prompt, one per
 * assistant turn (its text and/or tool calls), one per tool result; what `t.messages` reads.
 *
 * `exchange` (never shown by `t.messages`) names the ask that appended the message — the
 * run and the ask's step — so a resumed journaled run that answers the same ask again from
 * its journal finds its exchange already there and does not append it twice.
 */

import type { RecordCodec } from "../record-codec";

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

/** A thread as a store lists it: its id, and how many exchanges were appended to it. */
export interface ListedThread {
  id: string;
  version: number;
}

/**
 * A thread's id kept beside its digest (sealed when the store is encrypted, bound to the
 * digest) so the store can list its threads; rows written before it have none, and are
 * left out of the listing until their next append writes it.
 */
export const idBinding = (kd: string): string => `${kd}\u0000id`;

/** The threads whose ids decode (one sealed under another key, or damaged, is left out), by id. */
export const listed = (codec: RecordCodec, rows: readonly { kd: string; version: string | number; id: string | null }[]): ListedThread[] =>
  rows
    .flatMap((r) => {
      if (r.id === null) return [];
      try {
        return [{ id: codec.decodeValue(idBinding(r.kd), r.id) as string, version: Number(r.version) }];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.id.localeCompare(b.id));

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
  /** Every thread whose id the store holds (`luma ui`'s Threads view), by id. */
  list(): Promise<ListedThread[]>;
  close(): Promise<void>;
}

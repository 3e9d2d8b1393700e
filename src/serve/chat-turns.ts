/**
 * A chat turn that waits for the client (issue #26 §4): a tool call that needs approval
 * (`tool_policy: "approval"`, `approval: true`) or a client tool (`handler: "client"`). The
 * ask does not end: the answer so far goes out — the call as tool input, an approval as the
 * protocol's `tool-approval-request` — and the stream finishes, as the AI SDK's own server does
 * for a call the client must act on. `useChat` then sends the chat again with the assistant
 * message holding the client's answer (`addToolApprovalResponse`, `addToolOutput`); that
 * request finds the waiting turn here by the chat id, hands it the answers, and the turn goes
 * on streaming into the new response.
 *
 * Without a journal the waiting turn lives in this process: its continuation must reach the
 * same one (a load balancer keyed by the chat id). A wait nobody answers within the tool's
 * timeout is a refusal, as an unanswered MCP elicitation is. With a journal nothing waits in
 * memory: the turn's run ends "pending" and any process continues it (durable-chat-turns.ts).
 *
 * While it streams, a turn survives its client for LUMA_SERVE_RESUME_MS: a resume
 * (`GET /chat/{Agent}/{id}/stream`) re-attaches to the answer from its start; nobody
 * resuming, the turn is aborted and its thread gets nothing.
 */
import { randomUUID } from "node:crypto";
import { runtimeError, type LumaError } from "../diagnostics/luma-error";
import type { AskValue, ValueRequest } from "../runtime/tools/tool-invoker-types";
import { newCallStates, type CallStates, type UiMessageWriter } from "./ui-message-stream";
import { approvalIdOf } from "./durable-chat-turns";

/** What the client answered about one call: an approval's yes or no, or a client tool's output (or its refusal). */
export type ClientAnswer = { kind: "approval"; approvalId: string; approved: boolean } | { kind: "output"; toolCallId: string; output: unknown } | { kind: "output-error"; toolCallId: string };

interface Wait {
  settle(answer: ClientAnswer | undefined): void;
}

/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2_147_483_647;

/** One turn of one chat: the writer it streams into now, and the calls it waits on. */
export class ChatTurn {
  readonly calls: CallStates;
  /** Aborts the turn's tool calls: its client went away while attached, or the server stops. */
  readonly abort = new AbortController();
  /** Settles when the turn ended (finished or failed): what stopping the server waits for. */
  ended: Promise<void> = Promise.resolve();
  private writer: UiMessageWriter | undefined;
  /** Parts that came while no response was attached (between a pause and the next request). */
  private queued: ((w: UiMessageWriter) => void)[] = [];
  /** By approval id or tool call id. */
  private readonly waits = new Map<string, Wait>();
  /** Set while no reader reads the streaming answer: at its end the turn is aborted. */
  private orphaned: ReturnType<typeof setTimeout> | undefined;

  /**
   * `resumeMs`: how long a turn whose readers all went away waits for one to resume it
   * (LUMA_SERVE_RESUME_MS). `messageId`: the assistant message's id — with a journal, the
   * turn's run id (durable-chat-turns.ts); `held`: calls the client's message has already.
   */
  constructor(
    private readonly resumeMs: number,
    readonly messageId: string = randomUUID(),
    held?: ReadonlyMap<string, "open" | "done">,
  ) {
    this.calls = newCallStates(held);
  }

  /**
   * Every reader of the streaming answer went away (the tab closed, the connection dropped):
   * within `resumeMs` a resume may re-attach (`GET /chat/{Agent}/{id}/stream`); after it, the
   * turn is aborted — its tools' signals fire, the model is asked nothing more, the thread
   * gets nothing.
   */
  readonly clientGone = (): void => {
    if (this.resumeMs === 0) return this.abort.abort();
    clearTimeout(this.orphaned);
    this.orphaned = setTimeout(() => this.abort.abort(), this.resumeMs);
  };

  /** A new reader of the answer streaming now, from its start; undefined when none streams (ended, or paused for the client). */
  resume(sent: () => void): ReadableStream<Uint8Array> | undefined {
    const stream = this.writer?.follow(sent);
    if (stream !== undefined) {
      clearTimeout(this.orphaned);
      this.orphaned = undefined;
    }
    return stream;
  }

  /** Streams into `writer` from now on; `request` going away while it is attached aborts the turn. */
  attach(writer: UiMessageWriter, request: AbortSignal): void {
    this.writer = writer;
    request.addEventListener("abort", () => writer.release(), { once: true });
    for (const q of this.queued.splice(0)) q(writer);
  }

  /** Writes to the response attached now, or to the next one. */
  out(write: (w: UiMessageWriter) => void): void {
    if (this.writer) write(this.writer);
    else this.queued.push(write);
  }

  /** The turn ended: nothing is left to abort. */
  settle(): void {
    clearTimeout(this.orphaned);
  }

  get waiting(): boolean {
    return this.waits.size > 0;
  }

  /** Hands the client's answers to the waits they name (an empty list refuses every wait); false when none named one. */
  answer(answers: readonly ClientAnswer[]): boolean {
    if (answers.length === 0) {
      for (const w of this.waits.values()) w.settle(undefined);
      this.waits.clear();
      return false;
    }
    const known = answers.filter((a) => this.waits.has(a.kind === "approval" ? a.approvalId : a.toolCallId));
    for (const a of known) {
      const key = a.kind === "approval" ? a.approvalId : a.toolCallId;
      const wait = this.waits.get(key)!;
      this.waits.delete(key);
      wait.settle(a);
    }
    return known.length > 0;
  }

  /** Waits for the client's answer under `key` after `announce` went out; the response is finished (paused) meanwhile. */
  private wait(key: string, withinMs: number, announce: (w: UiMessageWriter) => void): Promise<ClientAnswer | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waits.delete(key);
        resolve(undefined);
      }, Math.min(withinMs, MAX_TIMER_MS));
      this.waits.set(key, {
        settle(answer) {
          clearTimeout(timer);
          resolve(answer);
        },
      });
      this.out(announce);
      this.pause();
    });
  }

  /** The stream so far is finished for the client to act; the turn keeps running. */
  private pause(): void {
    const w = this.writer;
    if (w === undefined) return;
    this.writer = undefined;
    w.finish();
  }

  /** The approver of this turn's calls (MethodCallState.approve). */
  readonly approve = async (_tool: string, _args: string, withinMs: number, _writes?: boolean, callId?: string): Promise<boolean> => {
    if (callId === undefined) return false;
    const approvalId = approvalIdOf(callId);
    const answer = await this.wait(approvalId, withinMs, (w) => w.approvalRequest(approvalId, callId));
    const approved = answer?.kind === "approval" && answer.approved;
    if (!approved) this.calls.denied.add(callId);
    return approved;
  };

  /** The asker of this turn's client tools (MethodCallState.askValue): the call went out as tool input already. */
  readonly askValue: AskValue = async (req: ValueRequest) => {
    if (req.purpose !== "answer" || req.callId === undefined) return undefined;
    const answer = await this.wait(req.callId, req.withinMs, () => {});
    if (answer?.kind !== "output" || req.problem(answer.output) !== undefined) return undefined;
    // The client holds this output already: it is not sent back.
    this.calls.pending.delete(req.callId);
    return { value: answer.output };
  };
}

/**
 * The turn of each chat in this process, running or waiting for its client, by chat id. One
 * at a time: a second message while a turn runs is THREAD_CONFLICT (409), never a second ask
 * interleaving its messages with the first's in the thread; a message while a turn waits
 * refuses that wait (the turn then ends) and goes on.
 */
export class ChatTurns {
  private readonly byChat = new Map<string, ChatTurn>();

  /** The turn of `chatId`, if one runs or waits. */
  of(chatId: string): ChatTurn | undefined {
    return this.byChat.get(chatId);
  }

  /** Registers `turn` as `chatId`'s; refused while another one is registered. */
  begin(chatId: string, turn: ChatTurn): void {
    if (this.byChat.has(chatId)) throw chatBusy(chatId);
    this.byChat.set(chatId, turn);
  }

  /** `chatId`'s turn if it waits for its client (it runs again once answered). */
  waitingOf(chatId: string): ChatTurn | undefined {
    const turn = this.byChat.get(chatId);
    return turn?.waiting ? turn : undefined;
  }

  /** The server stops: every turn's waits are refused and its calls aborted. */
  refuseAll(): void {
    for (const turn of this.byChat.values()) {
      turn.answer([]);
      turn.abort.abort();
    }
  }

  /** Forgets `turn` once it ended (finished, failed, aborted, or timed out waiting). */
  end(chatId: string, turn: ChatTurn): void {
    if (this.byChat.get(chatId) === turn) this.byChat.delete(chatId);
  }
}

export const chatBusy = (chatId: string): LumaError =>
  runtimeError("THREAD_CONFLICT", `Chat '${chatId}' has a turn running on this server; nothing was added. Send the message again once its answer has finished.`, { retryable: true });

/**
 * A chat turn that waits for its client, with a journal (issue #26 §4, scale-out): the wait
 * is not kept in memory. Each chat turn is a journal run of its own (call-runs.ts), and the
 * assistant message the stream's `start` part names carries that run's id. A call that needs
 * the client — an approval, a client tool's output — goes out as tool input (and the
 * protocol's approval request), then the run stops as "pending" and the stream finishes: the
 * process holds nothing for it.
 *
 * The client's answer — the same assistant message sent back, holding `approval-responded`,
 * `output-available` or `output-error` parts — may reach any process on the same journal and
 * threads store. There the turn runs again under the same run id, with the same prompt (the
 * user's message before it): its model requests answer from the journal (nothing is sent to
 * the provider, and their text is not streamed again — the client has it), tool calls that
 * finished answer from their receipts, and the calls that waited get the client's answers
 * here, by approval id or tool call id (the model's call ids are the recorded ones). Tool
 * input the client holds already is not sent again, nor output it holds (CallStates.held).
 * A later call that needs the client pauses the run again the same way.
 *
 * The journal's lease makes one continuation of a run at a time: a second one, on any process,
 * is THREAD_CONFLICT (409, retryable) before anything runs; a run id the journal does not
 * hold, or a run that ended, is E0679 (400). A prompt or thread that is not what the run
 * recorded is the journal's divergence, on the stream.
 */
import { runtimeError, type LumaError } from "../diagnostics/luma-error";
import { journalErrors } from "../runtime/journal/journal-errors";
import { newRunId } from "../runtime/journal/start-run";
import type { AskValue, ValueRequest } from "../runtime/tools/tool-invoker-types";
import { requestInvalid } from "./error-answer";
import type { ChatTurn, ClientAnswer } from "./chat-turns";

/** The pauses this module made: only they finish a stream as paused (another pending stop is a failure the stream reports). */
const pauses = new WeakSet<object>();

export const isClientPause = (e: unknown): boolean => typeof e === "object" && e !== null && pauses.has(e);

const pause = (e: LumaError): never => {
  pauses.add(e);
  throw e;
};

const keyOf = (a: ClientAnswer): string => (a.kind === "approval" ? a.approvalId : a.toolCallId);

/**
 * A chat turn's run id: a fresh run id bound to its chat — it ends with a digest of the chat
 * id, so a continuation sent under another chat id (whose thread may digest the same, e.g.
 * two new chats) cannot take this chat's waiting turn over.
 */
export const chatRunId = (chatId: string): string => `${newRunId()}-c${chatDigest(chatId)}`;

/** Whether `runId` was made for `chatId` by chatRunId. */
export const runOfChat = (runId: string, chatId: string): boolean => runId.endsWith(`-c${chatDigest(chatId)}`);

const chatDigest = (chatId: string): string => new Bun.CryptoHasher("sha256").update(chatId).digest("hex").slice(0, 16);

/** The approval id a call's approval request carries, and the client's answer comes back under. */
export const approvalIdOf = (callId: string): string => `approval-${callId}`;

/**
 * The approver and asker of a journaled chat turn: each call that needs the client answers
 * from the client's answers this request brought, else announces itself and pauses the run.
 */
export class ClientAnswers {
  private readonly byKey: Map<string, ClientAnswer>;

  constructor(
    private readonly turn: ChatTurn,
    private readonly runId: string,
    answers: readonly ClientAnswer[] = [],
  ) {
    this.byKey = new Map(answers.map((a) => [keyOf(a), a]));
  }

  /** MethodCallState.approve. */
  readonly approve = async (tool: string, _args: string, _withinMs: number, _writes?: boolean, callId?: string): Promise<boolean> => {
    if (callId === undefined) return false;
    const approvalId = approvalIdOf(callId);
    const answer = this.byKey.get(approvalId);
    if (answer === undefined) {
      this.turn.out((w) => w.approvalRequest(approvalId, callId));
      return pause(journalErrors.pendingChatClient(this.runId, tool, callId, "approval"));
    }
    const approved = answer.kind === "approval" && answer.approved;
    if (!approved) this.turn.calls.denied.add(callId);
    return approved;
  };

  /** MethodCallState.askValue: a client tool's call went out as tool input already. */
  readonly askValue: AskValue = async (req: ValueRequest) => {
    if (req.purpose !== "answer" || req.callId === undefined) return undefined;
    const answer = this.byKey.get(req.callId);
    if (answer === undefined) return pause(journalErrors.pendingChatClient(this.runId, req.tool, req.callId, "output"));
    if (answer.kind !== "output" || req.problem(answer.output) !== undefined) return undefined;
    // The client holds this output already: it is not sent back.
    this.turn.calls.pending.delete(req.callId);
    return { value: answer.output };
  };
}

/**
 * A continuation's run could not be taken (before anything streamed): another process (or
 * this one) continues it now → 409, retryable; the journal does not hold it waiting → 400.
 */
export function continuationRefused(e: unknown, runId: string): unknown {
  const code = (e as LumaError | undefined)?.catalogCode;
  if (code === "E0902") {
    return runtimeError("THREAD_CONFLICT", `Chat turn ${runId} is being continued already (on this server or another); nothing was run. Send the answers again once that has finished.`, { retryable: true });
  }
  if (code === "E0679") return requestInvalid((e as LumaError).message, { run_id: runId });
  return e;
}

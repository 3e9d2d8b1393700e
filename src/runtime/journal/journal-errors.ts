/**
 * The errors a journaled run can stop with, worded once. They are "run stops": not values
 * of the program, so `try`, the circuit breaker and the native tool loop pass them through
 * untouched (`isRunStop`) — a program cannot catch its own divergence or a pending approval
 * and carry on past it.
 */
import { LumaError, runtimeError, startupError } from "../../diagnostics/luma-error";

const RUN_STOP: unique symbol = Symbol.for("luma.runStop") as never;

const stop = (e: LumaError): LumaError => Object.assign(e, { [RUN_STOP]: true });

export const isRunStop = (e: unknown): boolean => typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[RUN_STOP] === true;

export const journalErrors = {
  inProgress: (runId: string, owner: string | null, shown: string) =>
    startupError(`Run ${runId} is in progress${owner ? ` (${owner})` : ""} in journal ${shown}; nothing was run. Try again when it has stopped.`, { catalogCode: "E0902" }),

  diverged: (runId: string, stepId: string, recorded: string, now: string) =>
    stop(
      runtimeError(
        "RUNTIME_ERROR",
        `Run ${runId} diverged from its journal at step ${stepId}: the journal holds ${recorded}, the program now makes ${now}. Start a new run (another --run-id) for the changed program.`,
      ),
    ),

  /**
   * The journal itself failed to record (a disk error, a server gone, a hostile trigger): the
   * run stops, since its steps could no longer be resumed. A backend error already worded as
   * a Luma error (the PostgreSQL journal's `Journal … failed: …`) keeps its words.
   */
  failed: (shown: string, e: unknown) =>
    stop(
      e instanceof LumaError
        ? e
        : runtimeError("RUNTIME_ERROR", `Journal ${shown} failed: ${e instanceof Error ? e.message : String(e)}`),
    ),

  /** A recorded outcome that is not what Luma writes for its kind of step (journal-codec.ts words the same for any step). */
  malformed: (shown: string, runId: string, stepId: string, what: string) =>
    stop(runtimeError("RUNTIME_ERROR", `Journal ${shown}: the record of step ${stepId} of run ${runId} is malformed (${what}); it was left unchanged.`)),

  /** A replayed output that its tool's output schema refuses (the journal altered, or the schema changed since). */
  replayInvalid: (shown: string, runId: string, stepId: string, tool: string, e: LumaError) =>
    stop(
      runtimeError(
        "TOOL_OUTPUT_INVALID",
        `Journal ${shown}: the recorded output of step ${stepId} of run ${runId} fails tool '${tool}''s output schema (the journal was altered, or the schema changed since it was recorded): ${e.message}`,
        { details: e.details },
      ),
    ),

  leaseLost: (runId: string) =>
    stop(runtimeError("RUNTIME_ERROR", `Run ${runId}: another process took over its lease in the journal; this process stopped without recording more.`)),

  /** `note`: the schema of the value the approver must supply (`approval: Schema`). */
  pendingApproval: (runId: string, stepId: string, tool: string, note?: string) =>
    stop(
      new LumaError({
        message:
          note === undefined
            ? `Run ${runId} is waiting for approval of tool '${tool}' at step ${stepId}. Approve with: luma approve --run-id ${runId} --step ${stepId} (or luma deny …), then run it again with --run-id ${runId}.`
            : `Run ${runId} is waiting for approval of tool '${tool}' at step ${stepId}, with a ${note}. Approve with: luma approve --run-id ${runId} --step ${stepId} --json '{…}' (a ${note}; or luma deny …), then run it again with --run-id ${runId}.`,
        phase: "pending",
      }),
    ),

  /** A client tool's call (`handler: "client"`) waits for the caller's answer. */
  pendingAnswer: (runId: string, stepId: string, tool: string, returns: string) =>
    stop(
      new LumaError({
        message: `Run ${runId} is waiting for an answer to client tool '${tool}' at step ${stepId}. Answer with: luma runs answer --run-id ${runId} --step ${stepId} --json '{…}' (a ${returns}), then run it again with --run-id ${runId}.`,
        phase: "pending",
      }),
    ),

  /**
   * A served chat turn's call that needs its client (an approval, a client tool's output):
   * the answer so far went out with the call, and the run waits for the client's next
   * request, which continues it under the same run id on any process (serve/durable-chat-turns.ts).
   */
  pendingChatClient: (runId: string, tool: string, callId: string, wants: "approval" | "output") =>
    stop(
      new LumaError({
        message: `Run ${runId} is waiting for the chat client's ${wants === "approval" ? "approval" : "output"} of tool '${tool}' (call ${callId}); the client's answer, sent back in the assistant message ${runId}, continues it.`,
        phase: "pending",
      }),
    ),

  /** A run asked to go on (a served chat turn's continuation) that the journal does not hold, or that ended. */
  notContinued: (runId: string, status: string | null, shown: string) =>
    startupError(
      status === null
        ? `Run ${runId} is not in journal ${shown}: there is no chat turn of that id to continue; nothing was run.`
        : `Run ${runId} has ${status} in journal ${shown}: only a chat turn that waits for its client can be continued; nothing was run.`,
      { catalogCode: "E0679", details: { run_id: runId, status } },
    ),

  /** An MCP server's question (`elicitation/create`) inside a tool call, waiting for `luma runs answer` (journaled-questions.ts). */
  pendingQuestion: (runId: string, stepId: string, tool: string, server: string) =>
    stop(
      new LumaError({
        message: `Run ${runId} is waiting for an answer to MCP server '${server}''s question during tool '${tool}' at step ${stepId}. Answer with: luma runs answer --run-id ${runId} --step ${stepId} --json '{…}' (see luma runs for the question and its form), then run it again with --run-id ${runId}.`,
        phase: "pending",
      }),
    ),

  /** An MCP server's sampling request inside a tool call, waiting for `luma approve` / `luma deny` (journaled-questions.ts). */
  pendingSampling: (runId: string, stepId: string, tool: string, server: string) =>
    stop(
      new LumaError({
        message: `Run ${runId} is waiting for approval of MCP server '${server}''s sampling request during tool '${tool}' at step ${stepId}. Approve with: luma approve --run-id ${runId} --step ${stepId} (or luma deny …), then run it again with --run-id ${runId}.`,
        phase: "pending",
      }),
    ),

  /** A recorded answer to a server's question that its form refuses (the journal altered). */
  questionAnswerInvalid: (shown: string, runId: string, stepId: string, tool: string, problem: string) =>
    stop(runtimeError("VALUE_INVALID", `Journal ${shown}: the recorded answer at step ${stepId} of run ${runId} (tool '${tool}') does not fit the server's form: ${problem}; it was left unchanged.`)),

  runIdInvalid: (id: string) =>
    startupError(`--run-id ${JSON.stringify(id)} is not a valid run id: use 1 to 100 letters, digits, '.', '_', ':' or '-'.`, { catalogCode: "E0903" }),
};

export const RUN_ID_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;

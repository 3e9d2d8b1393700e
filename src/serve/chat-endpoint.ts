/**
 * `POST /chat/{Agent}` (issue #26 §4): a `useChat` front end talks to a Luma agent unchanged.
 * The request is the AI SDK's chat body `{ id, messages }`; the answer is the UI message
 * stream (ui-message-stream.ts) of one streamed ask of the agent — its model, system prompt
 * and tools — in the thread the chat `id` names (chat-threads.ts), as `stream ask text ->
 * string in t` in one of its methods would be.
 *
 * The stored thread is the truth: only the client's last message, which must be the user's,
 * is the new prompt; the earlier messages the client sends are not added again (the thread
 * has them, or — a new server without a store — they are gone, and the client's copy is not
 * trusted to say what the model said). A failed ask appends nothing and ends the stream with
 * an `error` part naming its code; a request refused before the ask starts (unknown agent,
 * bad body) is a JSON error with its status instead of a stream.
 *
 * A call that needs the client — an approval, a client tool's output — pauses the turn
 * (chat-turns.ts): the stream finishes with the call as tool input (and an approval request),
 * and the client's next request, whose last message is the assistant's holding its answers,
 * continues the same turn into a new stream. Without a journal the paused turn waits in this
 * process; with one it waits in the journal, and any process continues it
 * (durable-chat-turns.ts).
 */
import type { AgentDecl, TypeRef } from "../syntax/ast";
import type { AskRunner } from "../runtime/ask/ask-types";
import type { Runtime } from "../runtime/interpreter/runtime-context";
import { agentContextFor } from "../runtime/interpreter/agent-context";
import { agentToolCallerFor } from "../runtime/interpreter/agent-tools";
import { asLumaError } from "../runtime/interpreter/runtime-errors";
import type { ThreadHandle } from "../runtime/interpreter/thread-values";
import { outsideThreadAsk } from "../runtime/interpreter/thread-ask";
import { readJsonObject, type BodyLimits } from "./request-body";
import { requestInvalid } from "./error-answer";
import { UI_MESSAGE_STREAM_HEADERS, uiMessageWriter, type UiMessageWriter } from "./ui-message-stream";
import { ChatTurn, chatBusy, type ChatTurns, type ClientAnswer } from "./chat-turns";
import { chatRunId, ClientAnswers, continuationRefused, isClientPause, runOfChat } from "./durable-chat-turns";
import { RUN_ID_PATTERN } from "../runtime/journal/journal-errors";
import type { CallRunOptions } from "../runtime/journal/call-runs";
import type { ChatThreads } from "./chat-threads";
import { AGENT_ARGS_KEY, type AgentArgs } from "./served-agent-args";
import type { Telemetry } from "../runtime/telemetry/telemetry";

const STRING_TYPE: TypeRef = { kind: "PrimType", name: "string", span: { file: "<serve>", start: 0, end: 0 } };

export interface ChatDeps {
  rt: Runtime;
  runner: AskRunner;
  threads: ChatThreads;
  /** The turn of each chat, running or paused for an approval or a client tool's output (chat-turns.ts). */
  turns: ChatTurns;
  limits: BodyLimits;
  agentArgs: AgentArgs;
  /** OpenTelemetry export, when configured: each chat turn is one `invoke_agent <Agent>` span. */
  telemetry?: Pick<Telemetry, "invokeAgent">;
  /** A journal is configured: each turn is a run of its own, and a turn that needs its client waits in the journal, not here (durable-chat-turns.ts). */
  durable?: boolean;
}

/**
 * `answers`: the client's answers, and what a journaled continuation needs besides
 * (durable-chat-turns.ts): the assistant message's id (the run), the user's prompt before it,
 * and the calls the client's message holds.
 */
type ChatRequest = { id: string } & (
  | { kind: "prompt"; text: string }
  | { kind: "answers"; answers: ClientAnswer[]; messageId: unknown; prompt: string | undefined; held: Map<string, "open" | "done"> }
);

type UiPart = { type?: unknown; text?: unknown; state?: unknown; toolCallId?: unknown; output?: unknown; approval?: { id?: unknown; approved?: unknown } };

const isToolPart = (p: UiPart): boolean => typeof p.type === "string" && (p.type.startsWith("tool-") || p.type === "dynamic-tool");
const FINAL_STATES = new Set(["output-available", "output-error", "output-denied"]);

/** The calls an assistant message holds: "done" once it has their output, error or denial. */
function heldIn(parts: UiPart[]): Map<string, "open" | "done"> {
  const tools = parts.filter(isObject).filter(isToolPart);
  return new Map(tools.flatMap((p) => (typeof p.toolCallId === "string" ? [[p.toolCallId, FINAL_STATES.has(p.state as string) ? "done" : "open"] as const] : [])));
}

/** The text of a user message's text parts, joined. */
const textIn = (parts: unknown[]): string =>
  parts
    .filter(isObject)
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("");

/** The answers an assistant message carries (`addToolApprovalResponse`, `addToolOutput`). */
function answersIn(parts: UiPart[]): ClientAnswer[] {
  const tools = parts.filter(isObject).filter(isToolPart);
  return tools.flatMap((p): ClientAnswer[] => {
    if (p.state === "approval-responded" && typeof p.approval?.id === "string") return [{ kind: "approval", approvalId: p.approval.id, approved: p.approval.approved === true }];
    if (typeof p.toolCallId !== "string") return [];
    if (p.state === "output-available") return [{ kind: "output", toolCallId: p.toolCallId, output: p.output }];
    if (p.state === "output-error") return [{ kind: "output-error", toolCallId: p.toolCallId }];
    return [];
  });
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A chat id is a key, never a path (every thread store digests it); bounded, and printable so it can be logged. */
const MAX_CHAT_ID = 256;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The `useChat` body: the chat's id, and the user's new message — or, last, the assistant's with the client's answers. */
function chatRequest(body: Record<string, unknown>): ChatRequest {
  const { id, messages, trigger } = body;
  if (typeof id !== "string" || id === "") throw requestInvalid("The chat body needs `id`, a non-empty string: it names the chat's thread.");
  if (id.length > MAX_CHAT_ID || CONTROL.test(id)) throw requestInvalid(`The chat \`id\` must be at most ${MAX_CHAT_ID} characters, without control characters.`);
  if (!Array.isArray(messages) || !messages.every(isObject)) throw requestInvalid("The chat body needs `messages`, an array of message objects `{ id, role, parts }`.");
  // The thread keeps every answer: regenerating one would add the user's message a second time.
  if (trigger === "regenerate-message") throw requestInvalid("Regenerating an answer is not served: the chat's thread keeps every exchange; send a new message instead.");
  type Message = { id?: unknown; role?: unknown; parts?: unknown } | undefined;
  const last = messages.at(-1) as Message;
  if (last?.role === "assistant" && Array.isArray(last.parts)) {
    const asked = messages.at(-2) as Message;
    const prompt = asked?.role === "user" && Array.isArray(asked.parts) ? textIn(asked.parts) : undefined;
    return { id, kind: "answers", answers: answersIn(last.parts as UiPart[]), messageId: last.id, prompt, held: heldIn(last.parts as UiPart[]) };
  }
  if (last === undefined || last.role !== "user" || !Array.isArray(last.parts)) {
    throw requestInvalid("The chat body needs `messages` ending with the user's message (`{ role: \"user\", parts: [{ type: \"text\", text }] }`).");
  }
  const text = textIn(last.parts);
  if (text.trim() === "") throw requestInvalid("The user's last message has no text part.");
  return { id, kind: "prompt", text };
}

/**
 * `GET /chat/{Agent}/{id}/stream` (`useChat`'s `resume: true`, the transport's
 * `reconnectToStream`): the answer chat `id` is streaming now, from its start — what a
 * reloaded page or a dropped connection missed — then live; 204 when none streams.
 */
export function resumeChat(deps: ChatDeps, chatId: string, sent: () => void): { response: Response; done: Promise<void> } {
  const turn = deps.turns.of(chatId);
  const stream = turn?.resume(sent);
  if (turn === undefined || stream === undefined) return { response: new Response(null, { status: 204 }), done: Promise.resolve() };
  return { response: new Response(stream, { headers: UI_MESSAGE_STREAM_HEADERS }), done: turn.ended };
}

const streamed = (writer: UiMessageWriter, done: Promise<void>) => ({ response: new Response(writer.body, { headers: UI_MESSAGE_STREAM_HEADERS }), done });

/**
 * Reads the request and starts the answer. Refusals before the ask throw (a JSON error);
 * after that, everything — the ask's failure included — goes out on the stream.
 */
export async function answerChat(deps: ChatDeps, agent: AgentDecl, req: Request, request: AbortController, sent: () => void): Promise<{ response: Response; done: Promise<void> }> {
  const body = await readJsonObject(req, "the useChat body { id, messages }", deps.limits);
  const chat = chatRequest(body);
  if (chat.kind === "answers") {
    const turn = deps.turns.waitingOf(chat.id);
    if (turn !== undefined && turn.answer(chat.answers)) {
      const writer = uiMessageWriter(turn.messageId, turn.clientGone, turn.calls, sent);
      turn.attach(writer, request.signal);
      return streamed(writer, turn.ended);
    }
    // With a journal nothing waits in memory: the answers continue the turn's run, on any process.
    if (!deps.durable) {
      throw requestInvalid(`Nothing in chat '${chat.id}' waits for an approval or a tool output here (the turn that asked ended, timed out, or runs on another server).`);
    }
  }
  // `useChat`'s transport adds `body: { $agent: {…} }` to every request it sends.
  const agentArgs = deps.agentArgs.for(agent, body[AGENT_ARGS_KEY], req.headers.has("origin"));
  const before = deps.turns.of(chat.id);
  if (before !== undefined && !before.waiting) throw chatBusy(chat.id);
  if (before !== undefined) {
    // A new message while a turn waits: the wait is refused, and that turn ends first.
    before.answer([]);
    await before.ended;
  }
  const turn = chat.kind === "prompt" ? new ChatTurn(deps.limits.resumeMs, deps.durable ? chatRunId(chat.id) : undefined) : new ChatTurn(deps.limits.resumeMs, continuedRun(chat), chat.held);
  deps.turns.begin(chat.id, turn);
  try {
    const thread = await deps.threads.open(chat.id);
    const writer = uiMessageWriter(turn.messageId, turn.clientGone, turn.calls, sent);
    turn.attach(writer, request.signal);
    if (chat.kind === "prompt") {
      const answers = deps.durable ? new ClientAnswers(turn, turn.messageId) : turn;
      await runTurn(deps, agent, { chatId: chat.id, turn, thread, prompt: chat.text, agentArgs, answers, run: deps.durable ? { runId: turn.messageId } : undefined });
    } else {
      // The run is taken before anything streams: a refusal (another continuation, no such run) is a JSON error.
      const answers = new ClientAnswers(turn, turn.messageId, chat.answers);
      await runTurn(deps, agent, { chatId: chat.id, turn, thread, prompt: chat.prompt!, agentArgs, answers, run: { runId: turn.messageId, continuing: true } }).catch((e) => {
        throw continuationRefused(e, turn.messageId);
      });
    }
    return streamed(writer, turn.ended);
  } catch (e) {
    deps.turns.end(chat.id, turn);
    throw e;
  }
}

/** The run a continuation names: the assistant message's id, with the prompt it answered. */
function continuedRun(chat: Extract<ChatRequest, { kind: "answers" }>): string {
  const runId = chat.messageId;
  if (typeof runId !== "string" || !RUN_ID_PATTERN.test(runId)) {
    throw requestInvalid(`The assistant message with the answers needs its \`id\`, the id of the turn's run that the stream's \`start\` part gave (1 to 100 letters, digits, '.', '_', ':' or '-'); got ${JSON.stringify(runId ?? null)}.`);
  }
  if (!runOfChat(runId, chat.id)) throw requestInvalid(`The assistant message's id ${JSON.stringify(runId)} names no turn of chat '${chat.id}': a turn is continued in the chat that started it; nothing was run.`);
  if (chat.prompt === undefined || chat.prompt.trim() === "") {
    throw requestInvalid("The assistant message with the answers must follow the user's message it answered (its text is the turn's prompt, checked against the run's journal).");
  }
  return runId;
}

interface TurnRun {
  chatId: string;
  turn: ChatTurn;
  thread: ThreadHandle;
  prompt: string;
  agentArgs: ReturnType<AgentArgs["for"]>;
  /** Who answers the calls that need the client: the in-memory turn, or the client's answers (durable-chat-turns.ts). */
  answers: Pick<ChatTurn, "approve" | "askValue">;
  /** With a journal: the turn's run. */
  run?: CallRunOptions;
}

/**
 * Starts the turn's ask, streaming into `turn`; resolves once it runs (with a journal, once
 * its run's lease is held), rejects when its run could not be taken — then nothing ran.
 */
function runTurn(deps: ChatDeps, agent: AgentDecl, t: TurnRun): Promise<void> {
  const { turn, thread } = t;
  const context = agentContextFor(deps.rt, agent.name, t.agentArgs ?? new Map());
  const methodCall = { failures: 0, signal: turn.abort.signal, approve: t.answers.approve, askValue: t.answers.askValue };
  // Another agent's method listed as a tool runs as from one of this agent's methods (multi-agent.md).
  const callAgent = agentToolCallerFor(deps.rt, agent.name, methodCall, t.agentArgs);
  let began = t.run === undefined;
  let started!: () => void;
  let refused!: (e: unknown) => void;
  const running = new Promise<void>((resolve, reject) => ((started = resolve), (refused = reject)));
  if (began) started();
  const run = t.run && { ...t.run, started: () => ((began = true), started()) };
  const ask = () =>
    outsideThreadAsk(deps.rt, thread, deps.runner, {
      agent,
      methodCall,
      callAgent,
      prompt: t.prompt,
      target: STRING_TYPE,
      site: agent,
      location: `luma serve /chat/${agent.name}`,
      // A replayed turn's text (a continued run, durable-chat-turns.ts) is in the client's message already.
      onText: (delta, replayed) => void (replayed || turn.out((w) => w.text(delta))),
      onToolRound: { calls: (c) => turn.out((w) => w.toolCalls(c)), results: (r) => turn.out((w) => w.toolResults(r)) },
      context,
    }, run);
  turn.ended = (deps.telemetry ? deps.telemetry.invokeAgent(agent.name, "chat", ask) : ask()).then(
    () => turn.out((w) => w.finish()),
    (e) => {
      if (!began) return refused(e);
      // Paused for the client (durable-chat-turns.ts): the answer so far is finished; the run waits, "pending".
      if (isClientPause(e)) return turn.out((w) => w.finish());
      const err = asLumaError(e, deps.rt.sourceOf, agent.nameSpan);
      turn.out((w) => w.fail(`[${err.code ?? "RUNTIME_ERROR"}] ${err.message}`));
    },
  ).finally(() => {
    turn.settle();
    deps.turns.end(t.chatId, turn);
  });
  return running;
}

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
 * continues the same turn into a new stream.
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
}

type ChatRequest = { id: string } & ({ kind: "prompt"; text: string } | { kind: "answers"; answers: ClientAnswer[] });

type UiPart = { type?: unknown; text?: unknown; state?: unknown; toolCallId?: unknown; output?: unknown; approval?: { id?: unknown; approved?: unknown } };

/** The answers an assistant message carries (`addToolApprovalResponse`, `addToolOutput`). */
function answersIn(parts: UiPart[]): ClientAnswer[] {
  const tools = parts.filter(isObject).filter((p) => typeof p.type === "string" && (p.type.startsWith("tool-") || p.type === "dynamic-tool"));
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
  const last = messages.at(-1) as { role?: unknown; parts?: unknown } | undefined;
  if (last?.role === "assistant" && Array.isArray(last.parts)) return { id, kind: "answers", answers: answersIn(last.parts as UiPart[]) };
  if (last === undefined || last.role !== "user" || !Array.isArray(last.parts)) {
    throw requestInvalid("The chat body needs `messages` ending with the user's message (`{ role: \"user\", parts: [{ type: \"text\", text }] }`).");
  }
  const text = (last.parts as unknown[])
    .filter(isObject)
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("");
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
    if (turn === undefined || !turn.answer(chat.answers)) {
      throw requestInvalid(`Nothing in chat '${chat.id}' waits for an approval or a tool output here (the turn that asked ended, timed out, or runs on another server).`);
    }
    const writer = uiMessageWriter(turn.messageId, turn.clientGone, turn.calls, sent);
    turn.attach(writer, request.signal);
    return streamed(writer, turn.ended);
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
  const turn = new ChatTurn(deps.limits.resumeMs);
  deps.turns.begin(chat.id, turn);
  let thread: ThreadHandle;
  try {
    thread = await deps.threads.open(chat.id);
  } catch (e) {
    deps.turns.end(chat.id, turn);
    throw e;
  }
  const writer = uiMessageWriter(turn.messageId, turn.clientGone, turn.calls, sent);
  turn.attach(writer, request.signal);
  const context = agentContextFor(deps.rt, agent.name, agentArgs ?? new Map());
  const methodCall = { failures: 0, signal: turn.abort.signal, approve: turn.approve, askValue: turn.askValue };
  // Another agent's method listed as a tool runs as from one of this agent's methods (multi-agent.md).
  const callAgent = agentToolCallerFor(deps.rt, agent.name, methodCall, agentArgs);
  const ask = () =>
    outsideThreadAsk(deps.rt, thread, deps.runner, {
      agent,
      methodCall,
      callAgent,
      prompt: chat.text,
      target: STRING_TYPE,
      site: agent,
      location: `luma serve /chat/${agent.name}`,
      onText: (delta) => turn.out((w) => w.text(delta)),
      onToolRound: { calls: (c) => turn.out((w) => w.toolCalls(c)), results: (r) => turn.out((w) => w.toolResults(r)) },
      context,
    });
  turn.ended = (deps.telemetry ? deps.telemetry.invokeAgent(agent.name, "chat", ask) : ask()).then(
    () => turn.out((w) => w.finish()),
    (e) => {
      const err = asLumaError(e, deps.rt.sourceOf, agent.nameSpan);
      turn.out((w) => w.fail(`[${err.code ?? "RUNTIME_ERROR"}] ${err.message}`));
    },
  ).finally(() => {
    turn.settle();
    deps.turns.end(chat.id, turn);
  });
  return streamed(writer, turn.ended);
}

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
 */
import { randomUUID } from "node:crypto";
import type { AgentDecl, TypeRef } from "../syntax/ast";
import type { AskRunner } from "../runtime/ask/ask-types";
import type { Runtime } from "../runtime/interpreter/runtime-context";
import { agentContextFor } from "../runtime/interpreter/agent-context";
import { asLumaError } from "../runtime/interpreter/runtime-errors";
import { askSettingsOf } from "../runtime/tools/steps/agent-ask-settings";
import type { ThreadHandle } from "../runtime/interpreter/thread-values";
import { readJsonObject } from "./request-body";
import { requestInvalid } from "./error-answer";
import { UI_MESSAGE_STREAM_HEADERS, uiMessageWriter } from "./ui-message-stream";
import type { ChatThreads } from "./chat-threads";
import type { Telemetry } from "../runtime/telemetry/telemetry";

const STRING_TYPE: TypeRef = { kind: "PrimType", name: "string", span: { file: "<serve>", start: 0, end: 0 } };

export interface ChatDeps {
  rt: Runtime;
  runner: AskRunner;
  threads: ChatThreads;
  /** OpenTelemetry export, when configured: each chat turn is one `invoke_agent <Agent>` span. */
  telemetry?: Pick<Telemetry, "invokeAgent">;
}

/** The `useChat` body: the chat's id and the text of its last message, the user's. */
function chatRequest(body: Record<string, unknown>): { id: string; text: string } {
  const { id, messages } = body;
  if (typeof id !== "string" || id === "") throw requestInvalid("The chat body needs `id`, a non-empty string: it names the chat's thread.");
  const last = Array.isArray(messages) ? (messages.at(-1) as { role?: unknown; parts?: unknown } | undefined) : undefined;
  if (last === undefined || last.role !== "user" || !Array.isArray(last.parts)) {
    throw requestInvalid("The chat body needs `messages` ending with the user's message (`{ role: \"user\", parts: [{ type: \"text\", text }] }`).");
  }
  const text = (last.parts as { type?: unknown; text?: unknown }[])
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("");
  if (text.trim() === "") throw requestInvalid("The user's last message has no text part.");
  return { id, text };
}

/**
 * Reads the request and starts the answer. Refusals before the ask throw (a JSON error);
 * after that, everything — the ask's failure included — goes out on the stream.
 */
export async function answerChat(deps: ChatDeps, agent: AgentDecl, req: Request, signal: AbortController): Promise<{ response: Response; done: Promise<void> }> {
  const { id, text } = chatRequest(await readJsonObject(req, "the useChat body { id, messages }"));
  const thread: ThreadHandle = await deps.threads.open(id);
  const writer = uiMessageWriter(randomUUID(), () => signal.abort());
  const context = agentContextFor(deps.rt, agent.name, new Map());
  const ask = () => thread.askIn(
      deps.runner,
      {
        agent,
        methodCall: { failures: 0, signal: signal.signal },
        prompt: text,
        target: STRING_TYPE,
        site: agent,
        location: `luma serve /chat/${agent.name}`,
        onText: writer.text,
        onToolRound: { calls: writer.toolCalls, results: writer.toolResults },
        context,
      },
      askSettingsOf(agent).historyLimit,
      agent.name,
      randomUUID(),
    );
  const done = (deps.telemetry ? deps.telemetry.invokeAgent(agent.name, "chat", ask) : ask()).then(
      () => writer.finish(),
      (e) => {
        const err = asLumaError(e, deps.rt.sourceOf, agent.nameSpan);
        writer.fail(`[${err.code ?? "RUNTIME_ERROR"}] ${err.message}`);
      },
    );
  return { response: new Response(writer.body, { headers: UI_MESSAGE_STREAM_HEADERS }), done };
}

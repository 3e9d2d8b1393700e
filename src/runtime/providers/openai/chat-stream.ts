/**
 * Chat Completions streamed (`stream: true`, `stream_options.include_usage`): each event is a
 * `chat.completion.chunk` whose `choices[0].delta` carries a piece of the content, of a
 * refusal, or of a tool call (by `index`: its id and name first, then its arguments in
 * pieces); the finish reason comes in its own chunk, the usage in a last chunk with no
 * choices, then `data: [DONE]`. The decoder rebuilds the `chat.completion` body the same
 * answer has unstreamed. Also used by Azure and OpenAI-compatible servers.
 */
import type { ProviderHttpRequest, StreamDecoder, WireStreaming } from "../provider-types";

type Obj = Record<string, any>;

export const chatStreaming: WireStreaming = {
  request: (req: ProviderHttpRequest) => ({ ...req, body: { ...req.body, stream: true, stream_options: { include_usage: true } } }),
  decoder: createChatStreamDecoder,
};

function createChatStreamDecoder(): StreamDecoder {
  let id: string | undefined;
  let model: string | undefined;
  let content: string | null = null;
  let refusal: string | null = null;
  let finish: string | null = null;
  let usage: Obj | undefined;
  let done = false;
  const calls: Obj[] = [];

  return {
    event(_name, data, onText) {
      if (data === "[DONE]") {
        done = true;
        return;
      }
      const chunk = JSON.parse(data) as Obj;
      if (chunk.error) throw new Error(`the stream reported an error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
      id ??= chunk.id;
      model ??= chunk.model;
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) return;
      const delta = choice.delta ?? {};
      if (typeof delta.content === "string" && delta.content !== "") {
        content = (content ?? "") + delta.content;
        onText(delta.content);
      }
      if (typeof delta.refusal === "string") refusal = (refusal ?? "") + delta.refusal;
      for (const part of delta.tool_calls ?? []) {
        const at = typeof part.index === "number" ? part.index : calls.length;
        const call = (calls[at] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
        if (part.id) call.id = part.id;
        if (part.function?.name) call.function.name += part.function.name;
        if (part.function?.arguments) call.function.arguments += part.function.arguments;
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    },
    finish() {
      if (!done && finish === null) throw new Error("the stream ended before the answer did");
      const message: Obj = { role: "assistant", content, refusal };
      if (calls.length > 0) message.tool_calls = calls.filter(Boolean);
      return { id, object: "chat.completion", model, choices: [{ index: 0, finish_reason: finish ?? "stop", message }], usage };
    },
  };
}

/**
 * The Messages API streamed (`stream: true`): `message_start` carries the message without
 * content (and the input tokens), each content block opens with `content_block_start`,
 * grows by `content_block_delta` — `text_delta`, `input_json_delta` (a tool's input as JSON
 * in pieces), `thinking_delta`, `signature_delta` — and closes with `content_block_stop`;
 * `message_delta` brings the stop reason and the output tokens, `message_stop` ends it, and
 * `ping`s may come anywhere. The decoder rebuilds the unstreamed message, thinking blocks and
 * their signatures included (a thinking turn is replayed to the API as it came).
 */
import type { ProviderHttpRequest, StreamDecoder, WireStreaming } from "../provider-types";

type Obj = Record<string, any>;

export const anthropicStreaming: WireStreaming = {
  request: (req: ProviderHttpRequest) => ({ ...req, body: { ...req.body, stream: true } }),
  decoder: createAnthropicStreamDecoder,
};

function createAnthropicStreamDecoder(): StreamDecoder {
  let message: Obj | undefined;
  let stopped = false;
  const blocks: Obj[] = [];
  const json: string[] = [];

  return {
    event(_name, data, onText) {
      const e = JSON.parse(data) as Obj;
      switch (e.type) {
        case "message_start":
          message = { ...e.message, content: [] };
          return;
        case "content_block_start":
          blocks[e.index] = { ...e.content_block };
          if (e.content_block?.type === "tool_use") json[e.index] = "";
          return;
        case "content_block_delta": {
          const block = blocks[e.index];
          const d = e.delta ?? {};
          if (!block) throw new Error(`a delta for content block ${e.index}, which never started`);
          if (d.type === "text_delta") {
            block.text = (block.text ?? "") + d.text;
            if (d.text) onText(d.text);
          } else if (d.type === "input_json_delta") json[e.index] = (json[e.index] ?? "") + d.partial_json;
          else if (d.type === "thinking_delta") block.thinking = (block.thinking ?? "") + d.thinking;
          else if (d.type === "signature_delta") block.signature = d.signature;
          return;
        }
        case "content_block_stop":
          if (json[e.index] !== undefined) blocks[e.index].input = json[e.index] === "" ? {} : JSON.parse(json[e.index]);
          return;
        case "message_delta":
          if (!message) throw new Error("message_delta before message_start");
          Object.assign(message, e.delta ?? {});
          message.usage = { ...message.usage, ...e.usage };
          return;
        case "message_stop":
          stopped = true;
          return;
        case "error":
          throw new Error(`the stream reported an error: ${e.error?.message ?? JSON.stringify(e.error)}`);
        default:
          return; // ping, and event types this version does not know
      }
    },
    finish() {
      if (!message || !stopped) throw new Error("the stream ended before the answer did (no message_stop)");
      return { ...message, content: blocks.filter(Boolean) };
    },
  };
}

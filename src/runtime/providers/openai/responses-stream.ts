/**
 * The Responses API streamed (`stream: true`): typed events — `response.output_text.delta`
 * carries a piece of the answer's text, and `response.completed` (or `response.incomplete`)
 * carries the whole response object, exactly the unstreamed body, which the decoder keeps.
 * `response.failed` and `error` events end the stream with the provider's message.
 */
import type { ProviderHttpRequest, StreamDecoder, WireStreaming } from "../provider-types";

type Obj = Record<string, any>;

export const responsesStreaming: WireStreaming = {
  request: (req: ProviderHttpRequest) => ({ ...req, body: { ...req.body, stream: true } }),
  decoder: createResponsesStreamDecoder,
};

function createResponsesStreamDecoder(): StreamDecoder {
  let final: Obj | undefined;
  return {
    event(_name, data, onText) {
      const e = JSON.parse(data) as Obj;
      switch (e.type) {
        case "response.output_text.delta":
          if (typeof e.delta === "string" && e.delta !== "") onText(e.delta);
          return;
        case "response.completed":
        case "response.incomplete":
          final = e.response;
          return;
        case "response.failed":
          throw new Error(`the response failed: ${e.response?.error?.message ?? "no reason given"}`);
        case "error":
          throw new Error(`the stream reported an error: ${e.message ?? e.error?.message ?? JSON.stringify(e)}`);
        default:
          return;
      }
    },
    finish() {
      if (!final) throw new Error("the stream ended before the answer did (no response.completed event)");
      return final;
    },
  };
}

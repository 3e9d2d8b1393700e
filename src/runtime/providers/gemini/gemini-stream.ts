/**
 * Gemini streamed (`:streamGenerateContent?alt=sse`): each event is a whole
 * `GenerateContentResponse` holding the next parts of the candidate — text pieces, function
 * calls (whole, never split), thought signatures — and the last one its finish reason and
 * the usage. The decoder joins the parts in order into the unstreamed body.
 */
import type { ProviderHttpRequest, StreamDecoder, WireStreaming } from "../provider-types";

type Obj = Record<string, any>;

export const geminiStreaming: WireStreaming = {
  request: (req: ProviderHttpRequest) => ({ ...req, url: req.url.replace(/:generateContent$/, ":streamGenerateContent?alt=sse") }),
  decoder: createGeminiStreamDecoder,
};

function createGeminiStreamDecoder(): StreamDecoder {
  const parts: Obj[] = [];
  let last: Obj | undefined;
  let finishReason: string | undefined;
  let usage: Obj | undefined;
  let extra: Obj = {};

  return {
    event(_name, data, onText) {
      const chunk = JSON.parse(data) as Obj;
      if (chunk.error) throw new Error(`the stream reported an error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
      last = chunk;
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
      const candidate = chunk.candidates?.[0];
      if (!candidate) return;
      const { content, finishReason: reason, ...rest } = candidate;
      extra = { ...extra, ...rest };
      if (reason) finishReason = reason;
      for (const part of content?.parts ?? []) {
        parts.push(part);
        if (typeof part.text === "string" && part.text !== "" && part.thought !== true) onText(part.text);
      }
    },
    finish() {
      // A prompt the API blocked answers with its feedback and no candidate, streamed or not.
      if (last && finishReason === undefined && last.promptFeedback && !last.candidates) return last;
      if (!last || finishReason === undefined) throw new Error("the stream ended before the answer did (no finishReason)");
      const { candidates: _candidates, usageMetadata: _usage, ...meta } = last;
      return { ...meta, candidates: [{ ...extra, finishReason, content: { role: "model", parts } }], usageMetadata: usage };
    },
  };
}

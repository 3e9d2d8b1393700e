/**
 * OpenAI-compatible servers (Ollama, vLLM, llama.cpp server; wire notes §1): the Chat
 * Completions body and response (openai/chat-completions.ts) with what these servers differ
 * on — the older `max_tokens` field, string tool choices only, and no `parallel_tool_calls`
 * (servers differ on the field, so it is not sent).
 */
import { createOpenAiAdapter, openAiVariant, type OpenAiVariant } from "../openai/chat-completions";
import type { WireAdapter } from "../provider-types";

export const compatibleVariant: OpenAiVariant = {
  ...openAiVariant,
  maxTokensField: "max_tokens",
  stringChoicesOnly: true,
  serialStrictTools: false,
};

export const createCompatibleAdapter = (): WireAdapter => createOpenAiAdapter(compatibleVariant);

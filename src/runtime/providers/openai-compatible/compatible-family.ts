/**
 * The `openai-compatible` family: a server of the program's choice (Ollama, vLLM, llama.cpp
 * server) speaking Chat Completions. It has no default host — the checker requires
 * `base_url` (rule model-base-url) — and no default key.
 */
import type { ProviderFamily } from "../provider-family";
import { chatCompletionsUsage } from "../openai/chat-completions";
import { scriptedChatCompletion } from "../openai/openai-family";
import { createCompatibleAdapter } from "./compatible-chat";

export const compatibleFamily: ProviderFamily = {
  name: "openai-compatible",
  // Local servers run without a key; never send OPENAI_API_KEY to them.
  defaults: {},
  wire: { createAdapter: createCompatibleAdapter, readUsage: chatCompletionsUsage, scripted: scriptedChatCompletion },
  // These servers compile their own grammars, without OpenAI's documented size limits.
  strictSchema: { recursiveFormat: true },
  // The GenAI conventions have no name for "some server speaking OpenAI's API": it is `openai`.
  telemetryName: "openai",
};

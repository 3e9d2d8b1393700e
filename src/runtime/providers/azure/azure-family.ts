/**
 * The `azure` family: Azure OpenAI, the Chat Completions wire with Azure's URL, auth header
 * and max-tokens field (azure-chat.ts). Its host is the resource's: `base_url`, or the
 * `AZURE_OPENAI_ENDPOINT` variable (resolve-model.ts), so there is no default host.
 */
import type { ProviderFamily } from "../provider-family";
import { chatCompletionsUsage } from "../openai/chat-completions";
import { openAiStrictProblem } from "../openai/openai-schema-limits";
import { scriptedChatCompletion } from "../openai/openai-family";
import { createAzureAdapter } from "./azure-chat";

export const azureFamily: ProviderFamily = {
  name: "azure",
  defaults: { keyEnv: "AZURE_OPENAI_API_KEY" },
  wire: { createAdapter: createAzureAdapter, readUsage: chatCompletionsUsage, scripted: scriptedChatCompletion },
  // OpenAI's models behind Azure's endpoint: the same strict mode and limits.
  strictSchema: { recursiveFormat: true, formatProblem: openAiStrictProblem, toolSchemaProblem: openAiStrictProblem },
  telemetryName: "azure.ai.openai",
};

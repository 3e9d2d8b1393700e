/**
 * The `gemini` family: the Gemini API's generateContent (wire notes §4), whose schema subset
 * (`toGeminiSchema`) is written by the adapter itself; nothing is rejected at start-up.
 */
import type { ProviderFamily } from "../provider-family";
import { SCRIPTED_USAGE, type ScriptedWire } from "../scripted-wire";
import { createGeminiAdapter, geminiUsage } from "./gemini-generate-content";

/** A `luma test` turn as a `GenerateContentResponse` body. */
const scriptedGeneration: ScriptedWire = (turn, _n, model, answer) => {
  const parts: Record<string, unknown>[] = [];
  if ("calls" in turn) {
    if (turn.text) parts.push({ text: turn.text });
    for (const c of turn.calls) parts.push({ functionCall: { name: c.tool, args: c.input ?? {} } });
  } else parts.push({ text: answer ?? "" });
  return {
    candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts } }],
    usageMetadata: { promptTokenCount: SCRIPTED_USAGE.input, candidatesTokenCount: SCRIPTED_USAGE.output, totalTokenCount: SCRIPTED_USAGE.input + SCRIPTED_USAGE.output },
    modelVersion: model,
  };
};

export const geminiFamily: ProviderFamily = {
  name: "gemini",
  defaults: { keyEnv: "GEMINI_API_KEY", baseUrl: "https://generativelanguage.googleapis.com" },
  wire: { createAdapter: createGeminiAdapter, readUsage: geminiUsage, scripted: scriptedGeneration },
  strictSchema: { recursiveFormat: true },
  telemetryName: "gcp.gemini",
};

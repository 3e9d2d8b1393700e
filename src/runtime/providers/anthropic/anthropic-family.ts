/**
 * The `anthropic` family: the Messages API (wire notes §3), its strict structured output
 * reduced to Anthropic's keyword subset and budget (anthropic-schema.ts,
 * anthropic-strict-budget.ts).
 */
import type { ProviderFamily } from "../provider-family";
import { SCRIPTED_USAGE, type ScriptedWire } from "../scripted-wire";
import { ANTHROPIC_DEFAULT_MAX_TOKENS, anthropicUsage, createAnthropicAdapter } from "./anthropic-messages";
import { anthropicFormatProblem } from "./anthropic-schema";

/** A `luma test` turn as a Messages API `message` body. */
const scriptedMessage: ScriptedWire = (turn, n, model, answer) => {
  const content: Record<string, unknown>[] = [];
  if ("calls" in turn) {
    if (turn.text) content.push({ type: "text", text: turn.text });
    turn.calls.forEach((c, i) => content.push({ type: "tool_use", id: `toolu_${n}_${i}`, name: c.tool, input: c.input ?? {} }));
  } else content.push({ type: "text", text: answer ?? "" });
  const stop = "calls" in turn ? "tool_use" : "end_turn";
  return { id: `msg_mock_${n}`, type: "message", role: "assistant", model, content, stop_reason: stop, usage: { input_tokens: SCRIPTED_USAGE.input, output_tokens: SCRIPTED_USAGE.output } };
};

export const anthropicFamily: ProviderFamily = {
  name: "anthropic",
  defaults: { keyEnv: "ANTHROPIC_API_KEY", baseUrl: "https://api.anthropic.com", maxTokens: ANTHROPIC_DEFAULT_MAX_TOKENS },
  wire: { createAdapter: createAnthropicAdapter, readUsage: anthropicUsage, scripted: scriptedMessage },
  // wire notes §3.4: strict structured output takes no recursive schema.
  strictSchema: { recursiveFormat: false, formatProblem: anthropicFormatProblem },
  telemetryName: "anthropic",
};

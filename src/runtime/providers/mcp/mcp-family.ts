/**
 * The `mcp` family: the MCP client that called a served method samples for it
 * (`sampling/createMessage`, mcp-sampling.ts). No key, no host of its own: the client
 * chooses the model (the model's `name` is only a hint to it), and reports no token counts.
 */
import type { ProviderFamily } from "../provider-family";
import type { ScriptedWire } from "../scripted-wire";
import { createSamplingAdapter, SAMPLING_URL } from "./mcp-sampling";

/** A `luma test` turn as a CreateMessageResult. */
const scriptedResult: ScriptedWire = (turn, n, model, answer) => {
  const content: Record<string, unknown>[] = [];
  if ("calls" in turn) {
    if (turn.text) content.push({ type: "text", text: turn.text });
    turn.calls.forEach((c, i) => content.push({ type: "tool_use", id: `tool_${n}_${i}`, name: c.tool, input: c.input ?? {} }));
  } else content.push({ type: "text", text: answer ?? "" });
  return { role: "assistant", model, content, stopReason: "calls" in turn ? "toolUse" : "endTurn" };
};

export const mcpFamily: ProviderFamily = {
  name: "mcp",
  defaults: { baseUrl: SAMPLING_URL },
  // Sampling reports no usage: every count stays unknown.
  wire: { createAdapter: createSamplingAdapter, readUsage: () => ({}), scripted: scriptedResult },
  // The schema goes in the system prompt, not to a strict decoder: any schema can be stated.
  strictSchema: { recursiveFormat: true },
  telemetryName: "mcp",
};

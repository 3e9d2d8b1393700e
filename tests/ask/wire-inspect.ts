/**
 * Reads a recorded request the same way whatever its wire format, so one table-driven test
 * asserts the flow for every provider: is there a final format, what is the tool choice,
 * where is the system prompt, what tool results were sent back.
 */
import type { RecordedRequest } from "../support/fake-provider/fake-provider";

export type Choice = "auto" | "none" | { tool: string } | undefined;

export interface SentResult {
  id?: string;
  name?: string;
  content: any;
  isError?: boolean;
}

type Obj = Record<string, any>;

export function finalFormat(r: RecordedRequest): Obj | undefined {
  const b = r.body;
  if (r.family === "openai") return b.response_format?.json_schema?.schema;
  if (r.family === "responses") return b.text?.format?.schema;
  if (r.family === "anthropic") return b.output_config?.format?.schema;
  return b.generationConfig?.responseMimeType === "application/json" ? b.generationConfig.responseJsonSchema : undefined;
}

export function toolChoice(r: RecordedRequest): Choice {
  const b = r.body;
  if (r.family === "openai") {
    if (b.tool_choice === undefined) return b.tools ? "auto" : "none";
    if (b.tool_choice === "required" && b.tools?.length === 1) return { tool: b.tools[0].function.name };
    if (typeof b.tool_choice === "object") return { tool: b.tool_choice.function.name };
    return b.tool_choice;
  }
  if (r.family === "responses") return typeof b.tool_choice === "object" ? { tool: b.tool_choice.name } : b.tool_choice;
  if (r.family === "anthropic") {
    if (!b.tool_choice) return undefined;
    return b.tool_choice.type === "tool" ? { tool: b.tool_choice.name } : b.tool_choice.type;
  }
  const c = b.toolConfig?.functionCallingConfig;
  if (!c) return undefined;
  return c.mode === "ANY" ? { tool: c.allowedFunctionNames[0] } : c.mode.toLowerCase();
}

export function toolNames(r: RecordedRequest): string[] {
  const b = r.body;
  if (r.family === "openai") return (b.tools ?? []).map((t: Obj) => t.function.name);
  if (r.family === "anthropic" || r.family === "responses") return (b.tools ?? []).map((t: Obj) => t.name);
  return (b.tools?.[0]?.functionDeclarations ?? []).map((d: Obj) => d.name);
}

export function toolParameters(r: RecordedRequest, name: string): Obj | undefined {
  const b = r.body;
  if (r.family === "openai") return b.tools?.find((t: Obj) => t.function.name === name)?.function.parameters;
  if (r.family === "anthropic") return b.tools?.find((t: Obj) => t.name === name)?.input_schema;
  if (r.family === "responses") return b.tools?.find((t: Obj) => t.name === name)?.parameters;
  return b.tools?.[0]?.functionDeclarations.find((d: Obj) => d.name === name)?.parametersJsonSchema;
}

export function systemPrompt(r: RecordedRequest): string | undefined {
  const b = r.body;
  if (r.family === "openai") return b.messages[0]?.role === "system" ? b.messages[0].content : undefined;
  if (r.family === "anthropic") return b.system;
  if (r.family === "responses") return b.instructions;
  return b.systemInstruction?.parts?.[0]?.text;
}

/** The tool results of the LAST results message of the request. */
export function toolResults(r: RecordedRequest): SentResult[] {
  const b = r.body;
  if (r.family === "openai") {
    const msgs: Obj[] = b.messages;
    let end = msgs.length;
    while (end > 0 && msgs[end - 1].role !== "tool") end--;
    let start = end;
    while (start > 0 && msgs[start - 1].role === "tool") start--;
    return msgs.slice(start, end).map((m) => ({ id: m.tool_call_id, content: JSON.parse(m.content) }));
  }
  if (r.family === "responses") {
    const items: Obj[] = b.input;
    let end = items.length;
    while (end > 0 && items[end - 1].type !== "function_call_output") end--;
    let start = end;
    while (start > 0 && items[start - 1].type === "function_call_output") start--;
    return items.slice(start, end).map((i) => ({ id: i.call_id, content: JSON.parse(i.output) }));
  }
  if (r.family === "anthropic") {
    const msg = [...b.messages].reverse().find((m: Obj) => m.role === "user" && Array.isArray(m.content) && m.content.some((c: Obj) => c.type === "tool_result"));
    return (msg?.content ?? [])
      .filter((c: Obj) => c.type === "tool_result")
      .map((c: Obj) => ({ id: c.tool_use_id, content: JSON.parse(c.content), isError: c.is_error === true }));
  }
  const content = [...b.contents].reverse().find((c: Obj) => c.parts.some((p: Obj) => p.functionResponse));
  return (content?.parts ?? [])
    .filter((p: Obj) => p.functionResponse)
    .map((p: Obj) => {
      const fr = p.functionResponse;
      return { id: fr.id, name: fr.name, content: fr.response.output ?? { error: fr.response.error }, isError: fr.response.error !== undefined };
    });
}

/** The text of the last user message (retry feedback). */
export function lastUserText(r: RecordedRequest): string {
  const b = r.body;
  if (r.family === "openai") return [...b.messages].reverse().find((m: Obj) => m.role === "user").content;
  if (r.family === "responses") return [...b.input].reverse().find((m: Obj) => m.role === "user").content;
  if (r.family === "anthropic") {
    const m = [...b.messages].reverse().find((x: Obj) => x.role === "user");
    return typeof m.content === "string" ? m.content : m.content.filter((c: Obj) => c.type === "text").map((c: Obj) => c.text).join("");
  }
  const c = [...b.contents].reverse().find((x: Obj) => x.role === "user");
  return c.parts.filter((p: Obj) => typeof p.text === "string").map((p: Obj) => p.text).join("");
}

export const FAMILIES = ["openai", "openai-responses", "azure", "azure-dated", "openai-compatible", "anthropic", "gemini"] as const;

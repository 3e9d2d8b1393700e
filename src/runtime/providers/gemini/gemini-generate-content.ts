/**
 * Gemini `generateContent` (wire notes §4): `POST {base}/v1beta/models/{model}:generateContent`,
 * `x-goog-api-key` (never the `?key=` query: keys stay out of URLs and logs).
 *
 * - tools: `[{functionDeclarations:[{name, description, parametersJsonSchema}]}]` — plain
 *   JSON Schema, sent as compiled (a `$ref` that carries keywords wrapped so it is bare,
 *   schema-refs.ts: recursive schemas go as `$defs`/`$ref`, §4.4); choice: `toolConfig.functionCallingConfig` mode
 *   AUTO / NONE / ANY + `allowedFunctionNames` for a forced tool;
 * - the model's `content` is replayed verbatim (thought signatures included); results are one
 *   user content of `functionResponse` parts, `response` = `{output}` or `{error}`, the call's
 *   `id` echoed only when it had one (Gemini often sends none: ids are made up locally and
 *   calls matched by position);
 * - final schema: `generationConfig.responseMimeType: "application/json"` + `responseJsonSchema`;
 * - in both schemas a `const` (the tag of a tagged union) goes as a one-value `enum`: `const`
 *   is not among the keywords Gemini honours (wire notes §4.4, docs/providers/strict-schemas.md), so the
 *   tag would be unconstrained and the member could not be told apart;
 * - every function declaration has a `description` (the model picks tools by it): a tool
 *   without one is described by its name.
 */
import type { FinishReason, ToolCall, TurnResult, WireAdapter } from "../provider-types";
import { bareRefs, mapSubschemas } from "../schema-refs";
import { plus, reported, type UsageReader } from "../read-usage";
import { responseMeta } from "../response-meta";
import { GEMINI_THINKING_BUDGET, takesGeminiBudget } from "../model-options-wire";
import { geminiStreaming } from "./gemini-stream";

/** Gemini `usageMetadata`: thoughts are output too. */
export const geminiUsage: UsageReader = (u) => ({
  input: reported(u?.promptTokenCount),
  output: plus(reported(u?.candidatesTokenCount), u?.thoughtsTokenCount),
  cached: reported(u?.cachedContentTokenCount),
  reasoning: reported(u?.thoughtsTokenCount),
});

type Obj = Record<string, any>;

const FINISH: Record<string, FinishReason> = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "refusal",
  RECITATION: "refusal",
  BLOCKLIST: "refusal",
  PROHIBITED_CONTENT: "refusal",
  SPII: "refusal",
  LANGUAGE: "refusal",
};

const MODES = { auto: "AUTO", none: "NONE", tool: "ANY" } as const;

function pushUser(contents: Obj[], parts: Obj[]): void {
  const last = contents[contents.length - 1];
  if (last?.role === "user") last.parts = [...last.parts, ...parts];
  else contents.push({ role: "user", parts });
}

/** "37s" / "1.5s" → ms. */
const durationMs = (v: unknown): number | undefined => {
  const m = typeof v === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(v) : null;
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
};

/** A one-value `enum` for each `const`; `$ref`s made bare (schema-refs.ts). */
export function toGeminiSchema(schema: Obj): Obj {
  const visit = (s: unknown): unknown => {
    if (typeof s !== "object" || s === null || Array.isArray(s)) return s;
    const out = mapSubschemas(s as Obj, visit);
    if (out.const === undefined || out.enum !== undefined) return out;
    const { const: value, ...rest } = out;
    return { ...rest, enum: [value] };
  };
  return visit(bareRefs(schema)) as Obj;
}

export function createGeminiAdapter(): WireAdapter {
  return {
    family: "gemini",
    streaming: geminiStreaming,

    prepareTools(specs) {
      const decls = specs.map((t) => {
        const d: Obj = { name: t.name, description: t.description ?? t.name };
        d.parametersJsonSchema = toGeminiSchema(t.parameters);
        return d;
      });
      return { specs, wire: [{ functionDeclarations: decls }] };
    },

    prepareFormat(format) {
      return { format, wire: { responseMimeType: "application/json", responseJsonSchema: toGeminiSchema(format.schema) } };
    },

    buildRequest(model, turn) {
      const contents: Obj[] = [];
      for (const item of turn.transcript) {
        if (item.kind === "user") pushUser(contents, [{ text: item.text }]);
        else if (item.kind === "assistant") contents.push((item.native as Obj | undefined) ?? neutralModelTurn(item.text, item.toolCalls));
        else {
          pushUser(
            contents,
            item.results.map((r) => {
              const fr: Obj = {};
              if (r.call.nativeId) fr.id = r.call.id;
              fr.name = r.call.name;
              // A result cut by max_result_chars goes as the text the model is shown (ToolResult.shown).
              fr.response = r.isError ? { error: (r.content as Obj).error } : { output: r.shown ?? r.content };
              return { functionResponse: fr };
            }),
          );
        }
      }
      const body: Obj = {};
      if (turn.system !== undefined) body.systemInstruction = { parts: [{ text: turn.system }] };
      body.contents = contents;
      if (turn.tools) {
        body.tools = turn.tools.wire;
        const c = turn.toolChoice;
        const config: Obj = { mode: MODES[c.type] };
        if (c.type === "tool") config.allowedFunctionNames = [c.name];
        body.toolConfig = { functionCallingConfig: config };
      }
      const gen: Obj = {};
      if (model.temperature !== undefined) gen.temperature = model.temperature;
      if (model.maxTokens !== undefined) gen.maxOutputTokens = model.maxTokens;
      if (model.topP !== undefined) gen.topP = model.topP;
      if (model.seed !== undefined) gen.seed = model.seed;
      if (model.stop !== undefined) gen.stopSequences = [...model.stop];
      const effort = model.reasoningEffort;
      if (effort !== undefined) {
        gen.thinkingConfig = takesGeminiBudget(model.name) ? { thinkingBudget: GEMINI_THINKING_BUDGET[effort] } : { thinkingLevel: effort.toUpperCase() };
      }
      if (turn.format) Object.assign(gen, turn.format.wire);
      if (Object.keys(gen).length > 0) body.generationConfig = gen;
      const name = model.name.startsWith("models/") ? model.name.slice(7) : model.name;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (model.apiKey) headers["x-goog-api-key"] = model.apiKey;
      return {
        url: `${model.baseUrl}/v1beta/models/${encodeURIComponent(name)}:generateContent`,
        headers,
        secretHeaders: ["x-goog-api-key"],
        body,
      };
    },

    parseResponse(body, turnIndex): TurnResult {
      const b = body as Obj;
      const u = b?.usageMetadata ?? {};
      const usage = geminiUsage(u);
      const candidate = Array.isArray(b?.candidates) ? b.candidates[0] : undefined;
      if (!candidate) {
        const reason = b?.promptFeedback?.blockReason;
        if (typeof reason !== "string") throw new Error("no candidates in the response");
        return { assistant: undefined, text: "", toolCalls: [], finish: "refusal", refusal: `the prompt was blocked (${reason})`, usage };
      }
      const parts: Obj[] = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
      let text = "";
      const toolCalls: ToolCall[] = [];
      for (const p of parts) {
        if (typeof p?.text === "string" && p.thought !== true) text += p.text;
        else if (p?.functionCall && typeof p.functionCall.name === "string") {
          const fc = p.functionCall;
          const nativeId = typeof fc.id === "string" && fc.id !== "";
          toolCalls.push({ id: nativeId ? fc.id : `call_${turnIndex}_${toolCalls.length}`, nativeId, name: fc.name, args: fc.args ?? {} });
        }
      }
      const finish = toolCalls.length > 0 ? "tool_calls" : (FINISH[candidate.finishReason] ?? "other");
      return {
        assistant: parts.length > 0 ? candidate.content : undefined,
        text,
        toolCalls,
        finish,
        refusal: finish === "refusal" ? `the answer was blocked (${candidate.finishReason})` : undefined,
        usage,
        response: responseMeta(b.responseId, b.modelVersion, candidate.finishReason),
      };
    },

    errorMessage(body) {
      const m = (body as Obj)?.error?.message;
      return typeof m === "string" ? m : undefined;
    },

    retryDelayFromBody(body) {
      const details = (body as Obj)?.error?.details;
      if (!Array.isArray(details)) return undefined;
      for (const d of details) {
        const ms = durationMs(d?.retryDelay);
        if (ms !== undefined) return ms;
      }
      return undefined;
    },

    normaliseArgs: (_tool, args) => args,
    normaliseFinal: (_format, value) => value,
  };
}

/** A thread's stored assistant turn as a Gemini `model` turn (no thought signatures: they belong to the turn that made them). */
function neutralModelTurn(text: string | undefined, calls: readonly ToolCall[] | undefined): Obj {
  const parts: Obj[] = [];
  if (text) parts.push({ text });
  for (const c of calls ?? []) {
    const fc: Obj = { name: c.name, args: c.args ?? {} };
    if (c.nativeId) fc.id = c.id;
    parts.push({ functionCall: fc });
  }
  return { role: "model", parts };
}

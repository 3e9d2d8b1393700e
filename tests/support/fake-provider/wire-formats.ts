/**
 * How the fake provider answers, per wire format (wire notes §1.5/1.7, §3.5/3.7, §4.5/4.7):
 * each scripted turn rendered exactly as the provider would send it — OpenAI chat
 * completions (also Azure and compatible servers), OpenAI Responses, Anthropic messages, Gemini
 * generateContent — including their error envelopes.
 */
export type Family = "openai" | "responses" | "anthropic" | "gemini";

export interface FakeToolCall {
  name: string;
  /** Arguments as an object (every family). */
  args?: unknown;
  /** OpenAI only: the raw `arguments` text, e.g. invalid JSON. */
  rawArgs?: string;
  /** Call id; Gemini calls get none unless given (as the Gemini API often does). */
  id?: string;
}

export type FakeTurn =
  | { toolCalls: FakeToolCall[]; text?: string }
  /** A final answer: the JSON text of `json`. */
  | { json: unknown }
  /** A final answer with exactly this text. */
  | { text: string; finish?: "stop" | "length" }
  | { refusal: string }
  /** An HTTP error in the family's envelope (or `body` as given), with optional headers. */
  | { status: number; message?: string; headers?: Record<string, string>; body?: unknown }
  /** A 200 whose body is exactly this text (not the provider's shape). */
  | { rawBody: string; headers?: Record<string, string> };

type Obj = Record<string, any>;

export interface Rendered {
  status: number;
  body: string;
  headers: Record<string, string>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Rendered => ({
  status,
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...headers },
});

const usage = (n: number) => ({ input: 50 + n * 10, output: 7 + n });

// ---------------------------------------------------------------- OpenAI

function openai(turn: FakeTurn, n: number, model: string): Obj {
  const u = usage(n);
  const message: Obj = { role: "assistant", content: null, refusal: null };
  let finish = "stop";
  if ("toolCalls" in turn) {
    message.content = turn.text ?? null;
    message.tool_calls = turn.toolCalls.map((c, i) => ({
      id: c.id ?? `call_${n}_${i}`,
      type: "function",
      function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args ?? {}) },
    }));
    finish = "tool_calls";
  } else if ("json" in turn) message.content = JSON.stringify(turn.json);
  else if ("refusal" in turn) message.refusal = turn.refusal;
  else if ("text" in turn) {
    message.content = turn.text;
    finish = turn.finish ?? "stop";
  }
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 1767225600 + n,
    model,
    choices: [{ index: 0, finish_reason: finish, logprobs: null, message }],
    usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output },
  };
}

// ---------------------------------------------------------------- OpenAI Responses

function responses(turn: FakeTurn, n: number, model: string): Obj {
  const u = usage(n);
  // A reasoning model's output starts with a reasoning item (encrypted: store is false).
  const output: Obj[] = [{ type: "reasoning", id: `rs_${n}`, summary: [], encrypted_content: `enc-${n}` }];
  const message = (content: Obj[]) => ({ type: "message", id: `msg_${n}`, status: "completed", role: "assistant", content });
  const text = (t: string) => ({ type: "output_text", text: t, annotations: [] });
  let status = "completed";
  let incomplete: Obj | null = null;
  if ("toolCalls" in turn) {
    if (turn.text) output.push(message([text(turn.text)]));
    turn.toolCalls.forEach((c, i) =>
      output.push({ type: "function_call", id: `fc_${n}_${i}`, call_id: c.id ?? `call_${n}_${i}`, name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args ?? {}), status: "completed" }),
    );
  } else if ("json" in turn) output.push(message([text(JSON.stringify(turn.json))]));
  else if ("refusal" in turn) output.push(message([{ type: "refusal", refusal: turn.refusal }]));
  else if ("text" in turn) {
    output.push(message([text(turn.text)]));
    if (turn.finish === "length") {
      status = "incomplete";
      incomplete = { reason: "max_output_tokens" };
    }
  }
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 1767225600 + n,
    status,
    incomplete_details: incomplete,
    model,
    output,
    usage: {
      input_tokens: u.input,
      input_tokens_details: { cached_tokens: 10 * n },
      output_tokens: u.output,
      output_tokens_details: { reasoning_tokens: n },
      total_tokens: u.input + u.output,
    },
  };
}

const OPENAI_ERROR_TYPES: Record<number, string> = { 400: "invalid_request_error", 401: "invalid_request_error", 404: "not_found_error", 429: "rate_limit_exceeded" };

// ---------------------------------------------------------------- Anthropic

function anthropic(turn: FakeTurn, n: number, model: string): Obj {
  const u = usage(n);
  const content: Obj[] = [];
  let stop = "end_turn";
  if ("toolCalls" in turn) {
    if (turn.text) content.push({ type: "text", text: turn.text });
    turn.toolCalls.forEach((c, i) => content.push({ type: "tool_use", id: c.id ?? `toolu_${n}_${i}`, name: c.name, input: c.args ?? {} }));
    stop = "tool_use";
  } else if ("json" in turn) content.push({ type: "text", text: JSON.stringify(turn.json) });
  else if ("refusal" in turn) {
    content.push({ type: "text", text: turn.refusal });
    stop = "refusal";
  } else if ("text" in turn) {
    content.push({ type: "text", text: turn.text });
    if (turn.finish === "length") stop = "max_tokens";
  }
  return {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: u.input, output_tokens: u.output },
  };
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
  413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 504: "timeout_error", 529: "overloaded_error",
};

// ---------------------------------------------------------------- Gemini

function gemini(turn: FakeTurn, n: number, model: string): Obj {
  const u = usage(n);
  const parts: Obj[] = [];
  let finish = "STOP";
  if ("toolCalls" in turn) {
    if (turn.text) parts.push({ text: turn.text });
    turn.toolCalls.forEach((c, i) => {
      const fc: Obj = {};
      if (c.id !== undefined) fc.id = c.id;
      fc.name = c.name;
      fc.args = c.args ?? {};
      // Only the first call of a turn carries a thought signature (wire notes §4.6).
      parts.push(i === 0 ? { functionCall: fc, thoughtSignature: btoa(`sig-${n}`) } : { functionCall: fc });
    });
  } else if ("json" in turn) parts.push({ text: JSON.stringify(turn.json) });
  else if ("refusal" in turn) finish = "SAFETY";
  else if ("text" in turn) {
    parts.push({ text: turn.text });
    if (turn.finish === "length") finish = "MAX_TOKENS";
  }
  return {
    candidates: [{ index: 0, finishReason: finish, content: { role: "model", parts } }],
    usageMetadata: { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output },
    modelVersion: model,
    responseId: `r${n}`,
  };
}

const GEMINI_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
};

// ---------------------------------------------------------------- rendering

export function errorBody(family: Family, status: number, message: string): Obj {
  if (family === "anthropic") {
    return { type: "error", error: { type: ANTHROPIC_ERROR_TYPES[status] ?? "api_error", message }, request_id: `req_fake_${status}` };
  }
  if (family === "gemini") return { error: { code: status, message, status: GEMINI_STATUS[status] ?? "UNKNOWN" } };
  return { error: { message, type: OPENAI_ERROR_TYPES[status] ?? "server_error", param: null, code: null } };
}

export function render(family: Family, turn: FakeTurn, n: number, model: string): Rendered {
  if ("status" in turn) {
    return json(turn.status, turn.body ?? errorBody(family, turn.status, turn.message ?? `fake error ${turn.status}`), turn.headers);
  }
  if ("rawBody" in turn) return { status: 200, body: turn.rawBody, headers: { "content-type": "application/json", ...turn.headers } };
  const body = { openai, responses, anthropic, gemini }[family](turn, n, model);
  return json(200, body, { "x-request-id": `req_${n}` });
}

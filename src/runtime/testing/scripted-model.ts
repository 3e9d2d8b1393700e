/**
 * The transport behind a test's `mock Model [turns]` (luma test): each request the model's
 * ask sends is answered with the next scripted turn, rendered in the model's own wire format
 * by its family's record (`scripted` of its wire, providers/families.ts: OpenAI chat
 * completions — also Azure and compatible servers —, OpenAI Responses, Anthropic messages,
 * Gemini generateContent). Everything above the transport —
 * the adapter's parsing, tool rounds through the real pipeline, validation, retries — runs
 * unchanged, so a test exercises the same flow as a run against the provider.
 *
 * A turn is `{ calls: [{ tool, input }], text? }` (the model calls tools) or `{ answer: v }`
 * (its final value: the JSON text of v; wrapped as `{ "value": v }` when the request's
 * answer format is the wrapper of a non-object target, ask-target.ts) or `{ text: "…" }`
 * (a raw answer text, e.g. one that is not JSON, to test the retry). Requests past the last
 * turn fail the test clearly; models without a mock fall through to `fallback`.
 */
import { runtimeError } from "../../diagnostics/luma-error";
import { PROVIDER_FAMILIES } from "../providers/families";
import type { WireFormat } from "../providers/provider-family";
import type { ScriptedTurn } from "../providers/scripted-wire";
import type { ExchangeInfo, Transport, WireRequest, WireResponse } from "../providers/transport";

export type { ScriptedCall, ScriptedTurn } from "../providers/scripted-wire";

export interface ScriptedModel {
  /** The model declaration's name. */
  model: string;
  turns: ScriptedTurn[];
  /** `file:line:col` of the `mock`, for messages. */
  where: string;
}

type Obj = Record<string, unknown>;

/** The wire format a request went out in: its family's, or the Responses API where its URL says so. */
function wireOf(req: WireRequest, info: ExchangeInfo): WireFormat {
  const family = PROVIDER_FAMILIES[info.provider];
  return family.responsesWire && /\/responses(\?|$)/.test(req.url) ? family.responsesWire : family.wire;
}

export function scriptedTransport(models: readonly ScriptedModel[], fallback: Transport): Transport {
  const queues = new Map(models.map((m) => [m.model, { model: m, next: 0 }]));
  return async (req, info) => {
    const q = queues.get(info.decl);
    if (!q) return fallback(req, info);
    const turn = q.model.turns[q.next];
    if (turn === undefined) {
      throw runtimeError(
        "PROVIDER_ERROR",
        `mock ${q.model.model} (${q.model.where}) scripts ${q.model.turns.length} turn(s); the ask sent request ${q.next + 1}`,
      );
    }
    const n = q.next++;
    const body = wireOf(req, info).scripted(turn, n, info.model, answerText(turn, info.body));
    return { status: 200, headers: { "content-type": "application/json" }, text: JSON.stringify(body) } satisfies WireResponse;
  };
}

/** The final answer's text; undefined for a tool-calling turn. */
function answerText(turn: ScriptedTurn, body: Obj): string | undefined {
  if ("calls" in turn) return undefined;
  if (!("answer" in turn)) return turn.text;
  const v = turn.answer;
  const alreadyWrapped = isObj(v) && Object.keys(v).length === 1 && "value" in v;
  return JSON.stringify(hasWrappedFormat(body) && !alreadyWrapped ? { value: v } : v);
}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the request's answer format (anywhere but its tool declarations) is `{ "value": T }`. */
function hasWrappedFormat(node: unknown, depth = 0): boolean {
  if (depth > 8 || typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some((n) => hasWrappedFormat(n, depth + 1));
  const o = node as Obj;
  const props = o.properties;
  if (isObj(props) && Object.keys(props).length === 1 && "value" in props && Array.isArray(o.required) && o.required[0] === "value") return true;
  return Object.entries(o).some(([k, v]) => k !== "tools" && k !== "messages" && k !== "contents" && k !== "input" && hasWrappedFormat(v, depth + 1));
}


/**
 * Handoffs, the `ask` side (issue #27 §2, docs/language/multi-agent.md § Handoffs): an agent
 * with `handoffs: [Refunds]` offers its model the tool `transfer_to_Refunds` (no arguments).
 * When the model calls it, the same `ask` goes on with Refunds acting: the same transcript
 * (every earlier call and result included), Refunds' own system, model and tools — and its
 * own `handoffs`, not a way back — and the same target type. The ask's `retries` and
 * `ask_timeout` stay those of the agent where it started; so does `max_handoffs`, the most
 * transfers one ask makes: once reached, no transfer tool is offered (`tool.withheld`).
 *
 * - One transfer per turn: the first `transfer_to_*` call of a turn, in the model's order, is
 *   the one made; a second gets an error result. The turn's other tool calls run as usual
 *   (they are the transferring agent's).
 * - A transfer is a journal step (kind `handoff`, `<request>.handoff`) and a `handoff` trace
 *   event; a resume replays the same answers, so it transfers again at the same turn and
 *   goes on with the same agent — the step's digest holds the two agents to what was recorded.
 * - Moving to a model of another provider family, the assistant turns so far are sent in
 *   their neutral form (text and calls, as a thread's are): one family's native turn is not
 *   another's wire.
 */
import type { AgentDecl, Program } from "../../syntax/ast";
import { createShapeCompiler } from "../../schema/compile-shape";
import { toJsonSchema } from "../../schema/json-schema";
import { toTypeBox } from "../../schema/to-typebox";
import { transferToolName } from "../../language/model-tool-names";
import { canonicalJson } from "../base/canonical-json";
import type { RunJournal } from "../journal/run-journal";
import { handoffId } from "../journal/step-scope";
import type { JsonSchema, ToolCall, ToolResult, ToolSpec, TranscriptItem } from "../providers/provider-types";
import { askSettingsOf } from "../tools/steps/agent-ask-settings";
import type { ToolCandidate } from "./tool-offer";

/** What a model reads after its transfer was made. */
export const transferredContent = (agent: string) => ({ transferred_to: agent });

/** The transfer tools of an agent's `handoffs`, after its other tools; an undeclared name is skipped (the checker reported it). */
export function handoffCandidates(program: Program, names: readonly string[]): ToolCandidate[] {
  const parameters = toJsonSchema(toTypeBox(createShapeCompiler(program).objectOf("__handoff_input", []))) as JsonSchema;
  const out: ToolCandidate[] = [];
  for (const name of names) {
    const target = program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === name);
    if (!target) continue;
    const system = askSettingsOf(target).system;
    const about = system === undefined ? "" : ` Its instructions: ${system}`;
    const spec: ToolSpec = {
      name: transferToolName(name),
      parameters,
      description: `Hands this conversation over to agent ${name}, which continues it with its own instructions and tools.${about}`,
    };
    out.push({ name: spec.name, spec, handoff: name });
  }
  return out;
}

/**
 * The transfer one turn makes: the first call of an offered `transfer_to_*` among those to
 * run, in the model's order; undefined when the turn makes none.
 */
export function transferOf(calls: readonly ToolCall[], toRun: readonly number[], handoffs: ReadonlyMap<string, string> | undefined): { index: number; agent: string } | undefined {
  if (!handoffs || handoffs.size === 0) return undefined;
  for (const i of toRun) {
    const agent = handoffs.get(calls[i].name);
    if (agent !== undefined) return { index: i, agent };
  }
  return undefined;
}

/** The result of a transfer call: made (the one of the turn), or refused (another transfer of the same turn). */
export function transferResult(call: ToolCall, made: { index: number; agent: string }, i: number): ToolResult {
  if (i === made.index) return { call, isError: false, content: transferredContent(made.agent) };
  const message = `Only one transfer per turn: the conversation goes to agent ${made.agent}; '${call.name}' was not made.`;
  return { call, isError: true, content: { error: { code: "HANDOFF_NOT_MADE", message, retryable: false } } };
}

/**
 * A transfer as a journal step: recorded once; on a resume its record is found again (the
 * digest holds the agents, so a resume that would transfer elsewhere stops as diverged).
 */
export function journalHandoff(journal: RunJournal | undefined, requestStep: string | undefined, from: string, to: string): Promise<string> {
  if (journal === undefined || requestStep === undefined) return Promise.resolve(to);
  return journal.step(handoffId(requestStep), "handoff", to, canonicalJson({ from, to }), () => Promise.resolve(to));
}

/** The transcript as a model of another family must read it: assistant turns by their text and calls. */
export function neutralTranscript(transcript: TranscriptItem[]): void {
  for (let i = 0; i < transcript.length; i++) {
    const item = transcript[i];
    if (item.kind === "assistant" && item.native !== undefined) transcript[i] = { ...item, native: undefined };
  }
}

/**
 * The `handoff` trace event: agent names, counts and the transfer call's id — no content.
 * OpenTelemetry makes it an `execute_tool transfer_to_<to>` span (otel/genai-spans.ts).
 */
export const handoffEvent = (from: string, to: string, used: number, limit: number, callId: string) => ({
  event: "handoff",
  from,
  to,
  tool: transferToolName(to),
  handoffs: used,
  max_handoffs: limit,
  call_id: callId,
});

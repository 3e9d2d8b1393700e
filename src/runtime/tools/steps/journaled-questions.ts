/**
 * Questions an MCP server asks inside one of the run's tool calls (`elicitation/create`),
 * answered by the journal when nobody is at the terminal (durable runs). The same machinery
 * as a client tool's waiting answer (pending-approvals.ts): the question is recorded as a
 * waiting row — kind "answer", schema name `form`, the server's requested schema as its JSON
 * Schema (no other fields: the server's form takes none) — and the
 * run stops (exit 75); `luma runs answer` judges a value against that schema (naming the
 * field that does not fit) and seals it; on resume the same tool call is made again, the
 * server asks again, and the question with the same content digest is answered from the row.
 * `luma deny` is not offered for an answer row: a person who will not answer leaves it.
 *
 * A sampling request that needs approval (`mcp_servers.<name>.sampling.approval: "ask"`, not
 * listed in LUMA_APPROVED_TOOLS) waits the same way as an approval row (`<step>#s<n>`,
 * `luma approve` / `luma deny`); a denied one is refused to the server as the person's no.
 * The model's answer itself is not journaled: on resume the approved request is sampled again.
 *
 * One call may ask several questions, each its own row: `<step>#q1`, `<step>#q2`, … in the
 * order asked (the server asks them in the same order on every re-made call; a question whose
 * digest differs from its row's is a new question, recorded anew). They wait one at a time:
 * once one waits, the call's later requests are cancelled unrecorded, since a later question
 * may depend on the waiting one's answer.
 *
 * The SDK answers the server outside the call's async context, so the call's questions are
 * found the way a forwarded elicitation is (mcp/forward-elicitation.ts): remote-call.ts reads
 * `currentQuestions()` in the call and registers it on its connection while it runs.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { canonicalJson } from "../../base/canonical-json";
import type { LumaError } from "../../../diagnostics/luma-error";
import { journalErrors } from "../../journal/journal-errors";
import type { CallContext } from "./call-context";
import { redactedArgs, sealedDecisionAt } from "./pending-approvals";
import type { PipelineRuntime } from "./step";

/** A server's question: its message and the flat form schema it asks with. */
export interface ServerQuestion {
  server: string;
  message: string;
  /** The message as `luma runs` shows it: without the connection's secrets (a header value the server echoes). */
  shown: string;
  schema: Record<string, unknown>;
  /** The first problem of a recorded value with the form (the MCP side's own check); undefined when it fits. */
  problem: (value: unknown) => string | undefined;
}

/** The recorded answer's value, or "wait": the question is now recorded and the run stops after the call. */
export type JournaledAnswer = { value: Record<string, unknown> } | "wait";

/** A server's sampling request that needs approval: what `luma runs` shows of it, and what its digest binds. */
export interface SamplingRequest {
  server: string;
  /** `sampling:<server>`: the name an approval is listed under, as LUMA_APPROVED_TOOLS names it. */
  name: string;
  /** The model and the last message, as `luma runs` shows them (without the connection's secrets). */
  shown: string;
  request: unknown;
}

export interface JournaledQuestions {
  answer(q: ServerQuestion): Promise<JournaledAnswer>;
  /** A recorded decision on a sampling request (`luma approve` / `luma deny`), or "wait": now recorded as pending. */
  approveSampling(r: SamplingRequest): Promise<"approved" | "denied" | "wait">;
  /** The run stop to throw once the server's call returned (a question recorded, or a recorded answer refused). */
  readonly stop: LumaError | undefined;
}

const current = new AsyncLocalStorage<JournaledQuestions>();

/** The journaled questions of the tool call running in this async context, if any. */
export const currentQuestions = (): JournaledQuestions | undefined => current.getStore();

const questionsOf = (rt: PipelineRuntime, ctx: CallContext): JournaledQuestions => {
  const j = rt.journal!;
  const tool = ctx.plan.tool.name;
  let asked = 0;
  let samplings = 0;
  let stop: LumaError | undefined;
  return {
    get stop() {
      return stop;
    },
    async answer(q) {
      // The call already stops the run: a later question may hang on the waiting one's answer, so it is not recorded yet.
      if (stop !== undefined) return "wait";
      const stepId = `${ctx.req.stepId!}#q${++asked}`;
      const digest = j.digest(`${tool}#${q.server}`, canonicalJson({ message: q.message, schema: q.schema }));
      const d = sealedDecisionAt(rt, stepId, tool, digest);
      if (d !== undefined && d.decision === "approved") {
        const problem = q.problem(d.value);
        if (problem === undefined) return { value: d.value as Record<string, unknown> };
        stop ??= journalErrors.questionAnswerInvalid(j.backend.shown, j.runId, stepId, tool, problem);
        return "wait";
      }
      await j.requestApproval(stepId, tool, digest, redactedArgs(q.shown), { kind: "answer", schema: "form", json_schema: { ...q.schema, additionalProperties: false } });
      stop ??= journalErrors.pendingQuestion(j.runId, stepId, tool, q.server);
      return "wait";
    },
    async approveSampling(r) {
      if (stop !== undefined) return "wait";
      const stepId = `${ctx.req.stepId!}#s${++samplings}`;
      const digest = j.digest(`${tool}#${r.name}`, canonicalJson(r.request ?? null));
      const d = sealedDecisionAt(rt, stepId, tool, digest);
      if (d !== undefined) return d.decision === "approved" ? "approved" : "denied";
      await j.requestApproval(stepId, tool, digest, redactedArgs(`${r.name}: ${r.shown}`));
      stop ??= journalErrors.pendingSampling(j.runId, stepId, tool, r.server);
      return "wait";
    },
  };
};

/** Runs a tool call with its journaled questions: with a journal, a step and nobody to ask live. */
export const withJournaledQuestions = <T>(rt: PipelineRuntime, ctx: CallContext, run: () => T): T => current.run(questionsOf(rt, ctx), run);

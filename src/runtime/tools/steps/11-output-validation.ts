/**
 * Step 11 — output validation (TOOL_OUTPUT_INVALID). A tool returns a schema, so anything
 * but a plain object fails before the schema is asked, and so does a value that is not JSON
 * data (schema/json-data.ts: a BigInt, a cycle, NaN, a Map… — typically in an `any` field):
 * the output goes on to a store, a trace or a model, none of which can hold it, and it must
 * fail here, the same on every backend, not after the handler ran as a raw serializer error.
 * Soft issues annotate (spec §3): the value is kept, a `warning:` line goes to stderr and a `validation.soft` event to the
 * trace. The call goes on with the validated value (defaults filled in).
 *
 * `validatedOutput` is also what a timed-out call's late result goes through before it is
 * recorded (timed-out-claim.ts): a stored output is always a validated one.
 */
import { jsonDataIssue } from "../../../schema/json-data";
import { freshSoftIssues, softValidationEvent, softWarningLine } from "../../base/soft-issue-report";
import { kindOf } from "../../base/value-kind";
import type { CallContext } from "./call-context";
import type { PipelineRuntime, StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

/** The handler's result `out` as the tool's output schema makes it; throws TOOL_OUTPUT_INVALID. */
export const validatedOutput = (rt: PipelineRuntime, ctx: CallContext, out: unknown): unknown => {
  const tool = ctx.plan.tool;
  if (tool.outputTarget === undefined) return out;
  if (tool.outputIsObject && (out === null || typeof out !== "object" || Array.isArray(out))) {
    throw toolErrors.outputNotObject(tool.outputRoot, kindOf(out));
  }
  const notJson = jsonDataIssue(out, tool.outputRoot);
  if (notJson !== undefined) throw toolErrors.outputInvalid(tool.outputRoot, [notJson.message], [notJson]);
  const r = rt.schemas.validate(tool.outputTarget, out, "output", tool.outputRoot);
  if (!r.ok) throw toolErrors.outputInvalid(tool.outputRoot, r.hard.map((i) => i.message), r.hard);
  for (const issue of freshSoftIssues(r.value, tool.outputRoot, r.soft)) {
    // A tool call has no source location here: the sentence keeps its period.
    rt.warn(softWarningLine(issue));
    rt.trace?.(softValidationEvent({ tool: tool.name, agent: ctx.plan.agent.name ?? null }, issue));
  }
  return r.value;
};

export const outputValidation: StepFactory = (rt) => ({
  name: "11 output validation",
  applies: (plan) => plan.tool.outputTarget !== undefined,
  run(ctx, next) {
    ctx.output = validatedOutput(rt, ctx, ctx.output);
    return next(ctx);
  },
});

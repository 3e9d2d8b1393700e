/**
 * Step 11 — output validation (TOOL_OUTPUT_INVALID). A tool returns a schema, so anything
 * but a plain object fails before the schema is asked, and so does a value that is not JSON
 * data (schema/json-data.ts: a BigInt, a cycle, NaN, a Map… — typically in an `any` field):
 * the output goes on to a store, a trace or a model, none of which can hold it, and it must
 * fail here, the same on every backend, not after the handler ran as a raw serializer error. Soft issues annotate (spec §3):
 * the value is kept, a `warning:` line goes to stderr and a `validation.soft` event to the
 * trace. The call goes on with the validated value (defaults filled in).
 */
import { jsonDataIssue } from "../../../schema/json-data";
import { softValidationEvent, softWarningLine } from "../../soft-issue-report";
import { kindOf } from "../../value-kind";
import type { StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

export const outputValidation: StepFactory = (rt) => ({
  name: "11 output validation",
  applies: (plan) => plan.tool.outputTarget !== undefined,
  run(ctx, next) {
    const tool = ctx.plan.tool;
    const out = ctx.output;
    if (tool.outputIsObject && (out === null || typeof out !== "object" || Array.isArray(out))) {
      throw toolErrors.outputNotObject(tool.outputRoot, kindOf(out));
    }
    const notJson = jsonDataIssue(out, tool.outputRoot);
    if (notJson !== undefined) throw toolErrors.outputInvalid(tool.outputRoot, [notJson.message], [notJson]);
    const r = rt.schemas.validate(tool.outputTarget!, out, "output", tool.outputRoot);
    if (!r.ok) throw toolErrors.outputInvalid(tool.outputRoot, r.hard.map((i) => i.message), r.hard);
    for (const issue of r.soft) {
      // A tool call has no source location here: the sentence keeps its period.
      rt.warn(softWarningLine(issue));
      rt.trace?.(softValidationEvent({ tool: tool.name, agent: ctx.plan.agent.name ?? null }, issue));
    }
    ctx.output = r.value;
    return next(ctx);
  },
});

/**
 * A client tool's call (`handler: "client"`): no host handler runs — the caller answers, and
 * the answer is the call's result, going on through output validation (step 11), the trace
 * and the journal like a handler's result. It stands where step 10 stands for other tools
 * (which does not apply to a client tool, nor does step 1's registry lookup).
 *
 * Who answers (person-values.ts): the call's own asker (an MCP client's elicitation), else
 * the terminal's prompt when stdin is interactive; else, in a journaled run, the answer a
 * person recorded with `luma runs answer` — without one the call is recorded as waiting and
 * the run stops (exit 75); else CLIENT_TOOL_UNANSWERED naming the tool.
 */
import { awaitAnswer, waitsInJournal } from "./pending-approvals";
import { askPerson, liveAsker, wantedAnswer } from "./person-values";
import type { StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

export const isClientTool = (options: { handler?: string }): boolean => options.handler === "client";

export const clientAnswer: StepFactory = (rt) => ({
  name: "10 client answer",
  applies: (plan) => isClientTool(plan.tool.options),
  async run(ctx, next) {
    const want = wantedAnswer(ctx);
    const ask = liveAsker(rt, ctx);
    if (ask === undefined) {
      if (waitsInJournal(rt, ctx)) return awaitAnswer(rt, ctx, next, want);
      throw toolErrors.clientUnanswered(ctx.plan.tool.name, want.name);
    }
    const got = await askPerson(rt, ctx, ask, want);
    if (got === undefined) throw toolErrors.clientDeclined(ctx.plan.tool.name);
    ctx.output = got.value;
    return next(ctx);
  },
});

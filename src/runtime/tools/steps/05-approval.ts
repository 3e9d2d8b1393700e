/**
 * Step 5 — approval (TOOL_PERMISSION_DENIED): a write tool under `tool_policy: "approval"`,
 * or any tool that says `approval: true` / `approval: Schema` (call-plan.ts decides which
 * calls need it). A tool listed in LUMA_APPROVED_TOOLS never reaches this step (the plan
 * leaves it out) — unless it wants a note, which no list can supply. Otherwise the call's own
 * asker (an MCP client's elicitation), else the host's (the CLI's TTY prompt) is asked on
 * every call (a chat served by `luma serve` asks through its method call's asker); without one — stdin is not a terminal — the call is refused, unless the run
 * has a journal: then the call waits for a recorded decision (pending-approvals.ts, exit 75
 * until there is one).
 *
 * `approval: Schema`: the approver supplies a value of the schema with the yes (the
 * terminal asks for each field, an MCP client gets a form of that schema, `luma approve`
 * takes `--json`); it is validated and handed to the handler as `ctx.approval`
 * (person-values.ts). Declining, or an empty first answer on the terminal, is a refusal.
 *
 * The person deciding sees the call: the tool and its arguments as `luma runs` shows them
 * (redactedArgs: secret-looking fields and the tool's credential value hidden, long text cut).
 * `needs` values are resolved only later (step 7), so they cannot be among them.
 */
import { awaitApproval, redactedArgs, waitsInJournal } from "./pending-approvals";
import { askPerson, liveAsker, wantedNote } from "./person-values";
import type { StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

export const approval: StepFactory = (rt) => ({
  name: "5 tool_policy approval",
  applies: (plan) => plan.needsApproval,
  async run(ctx, next) {
    const tool = ctx.plan.tool.name;
    const note = wantedNote(ctx);
    if (note !== undefined) {
      const ask = liveAsker(rt, ctx);
      if (ask === undefined) {
        if (waitsInJournal(rt, ctx)) return awaitApproval(rt, ctx, next, note);
        throw toolErrors.approvalNoteUnavailable(tool, note.name);
      }
      const got = await askPerson(rt, ctx, ask, note);
      if (got === undefined) throw toolErrors.approvalRefused(tool);
      ctx.approval = got.value;
      return next(ctx);
    }
    const approve = ctx.req.approve ?? ctx.req.methodCall?.approve ?? rt.approve;
    if (approve === undefined) {
      if (waitsInJournal(rt, ctx)) return awaitApproval(rt, ctx, next);
      throw toolErrors.approvalUnavailable(tool);
    }
    const credential = ctx.plan.tool.options.credential;
    const secret = credential === undefined ? undefined : rt.env[credential];
    const writes = ctx.plan.tool.options.sideEffects === "write";
    const approved = await approve(tool, redactedArgs(ctx.req.input, secret ? [secret] : []), ctx.plan.timeoutMs, writes, ctx.req.callId);
    ctx.startedAt = -1; // the prompt took a while: the handler's deadline starts later
    if (approved !== true) throw toolErrors.approvalRefused(tool);
    return next(ctx);
  },
});

/**
 * Values a person supplies for a call: a client tool's answer (`handler: "client"`, the
 * tool's result) and an approval's note (`approval: Schema`, the handler's `ctx.approval`).
 * Both are asked the same three ways, in this order:
 *
 *   the call's own asker (an MCP client's elicitation), else the host's (the terminal's
 *     prompt, only when stdin is interactive): the value is checked with the program's own
 *     validator before it is taken (`problem`), and the asker may ask again
 *   a journal (durable run): the call is recorded as waiting, with the wanted schema's name
 *     and JSON Schema (so `luma runs answer` / `luma approve --json` can judge a value without
 *     the program), and the run stops (exit 75); the value a person records is bound to the
 *     step and the input digest like a decision, sealed, and validated again here on resume
 *   neither: the call fails with a typed error naming the tool
 */
import { toJsonSchema } from "../../../schema/json-schema";
import type { ValidationTarget } from "../../../schema/schema-table-types";
import { typeText } from "../../../schema/type-text";
import type { PendingWants } from "../../journal/run-journal";
import type { AskValue, ValueRequest } from "../tool-invoker-types";
import type { CallContext } from "./call-context";
import { redactedArgs } from "./pending-approvals";
import type { PipelineRuntime } from "./step";

/** What is wanted of the person: its purpose, the schema and how messages name it. */
export interface WantedValue {
  purpose: "answer" | "approval";
  target: ValidationTarget;
  /** The type as written: `Confirmed`, `string[]`. */
  name: string;
  /** The validator's root: `confirm_address.output`, `refund.approval`. */
  root: string;
}

/** A client tool's answer: a value of its return type. */
export const wantedAnswer = (ctx: CallContext): WantedValue => {
  const tool = ctx.plan.tool;
  return { purpose: "answer", target: tool.outputTarget!, name: typeText(tool.outputTarget!), root: tool.outputRoot };
};

/** An approval's note (`approval: Schema`), or undefined for a plain yes/no approval. */
export const wantedNote = (ctx: CallContext): WantedValue | undefined => {
  const note = ctx.plan.tool.options.approval;
  return typeof note === "string" ? { purpose: "approval", target: { schema: note }, name: note, root: `${ctx.plan.tool.name}.approval` } : undefined;
};

const jsonSchemaOf = (rt: PipelineRuntime, want: WantedValue): Record<string, unknown> =>
  toJsonSchema("schema" in want.target ? rt.schemas.named(want.target.schema)! : rt.schemas.typeOf(want.target as never));

/** The value as the program's validator makes it (defaults filled in), or its first problem. Every rule is hard: a person's value is input. */
export const checkPersonValue = (rt: PipelineRuntime, want: WantedValue, value: unknown): { ok: true; value: unknown } | { ok: false; problem: string } => {
  const r = rt.schemas.validate(want.target, value, "input", want.root);
  return r.ok ? { ok: true, value: r.value } : { ok: false, problem: r.hard[0]?.message ?? `${want.root} is invalid.` };
};

/** The call's asker, else the host's (the terminal, only when interactive); undefined when nobody can be asked live. */
export const liveAsker = (rt: PipelineRuntime, ctx: CallContext): AskValue | undefined => ctx.req.askValue ?? ctx.req.methodCall?.askValue ?? rt.askValue;

/** Asks a person live; undefined when they declined. */
export const askPerson = async (rt: PipelineRuntime, ctx: CallContext, ask: AskValue, want: WantedValue): Promise<{ value: unknown } | undefined> => {
  const credential = ctx.plan.tool.options.credential;
  const secret = credential === undefined ? undefined : rt.env[credential];
  const req: ValueRequest = {
    purpose: want.purpose,
    tool: ctx.plan.tool.name,
    args: redactedArgs(ctx.req.input, secret ? [secret] : []),
    schemaName: want.name,
    jsonSchema: jsonSchemaOf(rt, want),
    problem: (v) => {
      const r = checkPersonValue(rt, want, v);
      return r.ok ? undefined : r.problem;
    },
    withinMs: ctx.plan.timeoutMs,
    callId: ctx.req.callId,
  };
  const got = await ask(req);
  ctx.startedAt = -1; // the person took a while: the handler's deadline starts later
  if (got === undefined) return undefined;
  const r = checkPersonValue(rt, want, got.value);
  // An asker hands back only what `problem` passed; one that did not is refused here.
  if (!r.ok) throw new Error(`internal: an asker returned a value its check refused (${r.problem})`);
  return { value: r.value };
};

/** What the journal's waiting row keeps of the wanted value. */
export const pendingWants = (rt: PipelineRuntime, want: WantedValue): PendingWants => ({ kind: want.purpose, schema: want.name, json_schema: jsonSchemaOf(rt, want) });

/**
 * Everything about one tool that does not depend on the caller, computed once when the
 * invoker is created: parsed options, validation targets and roots, the needs it declares.
 * The handler is looked up by step 1 on first use and remembered here.
 */
import type { Program, SchemaDecl, ToolDecl, TypeRef } from "../../../syntax/ast";
import type { ValidationTarget } from "../../../schema/schema-table-types";
import { typeText } from "../../../schema/type-text";
import type { ToolHandler } from "./step";
import type { CallContext } from "./call-context";
import { handlerReadsSignal } from "./handler-signal";
import { defaultToolOptions, readToolOptions, type ToolOptions } from "./tool-options";
import { canonicalJson } from "../../base/canonical-json";
import { toolFingerprint, type Fingerprint, type ToolFingerprint } from "./input-fingerprint";

export interface NeedsPlan {
  /** The `needs` name, which is also the `tool_contexts` entry it is built from. */
  name: string;
  type: TypeRef;
  /** How messages name the type: `Database`, `string`… */
  typeLabel: string;
  /** The declared fields when the type is a schema: only these are type-checked. */
  fields?: string[];
  /** Step 7's memo of the last context it built (see 07-needs-resolution.ts). */
  memo?: unknown;
}

export interface ToolPlan {
  name: string;
  /** Undefined when the program declares no such tool (a model may ask for anything). */
  decl?: ToolDecl;
  options: ToolOptions;
  inputTarget: ValidationTarget;
  inputRoot: string;
  outputTarget?: TypeRef;
  outputRoot: string;
  /** A schema reference returns an object (or a tagged union of objects). */
  outputIsObject: boolean;
  errorTarget?: ValidationTarget;
  errorRoot: string;
  needs: NeedsPlan[];
  handler?: ToolHandler;
  /**
   * Whether the handler is handed an AbortSignal: false only when its source proves it
   * cannot read one (`(input) => …`), since making one costs ~0.35 µs (handler-signal.ts).
   */
  wantsSignal: boolean;
  /** The canonical JSON of a validated input (idempotency fingerprint), compiled for its parameters; canonicalJson when unset. */
  fingerprint?: Fingerprint;
  /** The same text, deferred: step 9 snapshots the input and writes it only if a store reads it. */
  deferredFingerprint?: ToolFingerprint;
  /** Step 9's key prefix for a string key (tool name, NUL, "s"), made on first use. */
  stringKeyPrefix?: string;
  /** Set for a query or command (spec §12) that runs through this pipeline; unset for tools. */
  statement?: StatementHooks;
}

/** What a query or command changes in the pipeline: its trace event and its timeout message. */
export interface StatementHooks {
  /** `query.call` / `command.call`, in place of `tool.call` (spec §14). */
  traceEvent(ctx: CallContext, durationMs: number, error?: { code?: string; retryable: boolean }): object;
  /** A TOOL_TIMEOUT that names the statement and its datasource. */
  timeoutError(ms: number): Error;
}

const schemaFields = (program: Program, t: TypeRef): string[] | undefined => {
  if (t.kind !== "NamedType") return undefined;
  const decl = program.decls.find((d): d is SchemaDecl => d.kind === "Schema" && d.name === t.name);
  return decl?.fields.map((f) => f.name);
};

export const buildToolPlan = (program: Program, decl: ToolDecl): ToolPlan => {
  const options = readToolOptions(decl);
  const fingerprint = toolFingerprint(decl.params.map((p) => p.name));
  return {
    name: decl.name,
    decl,
    options,
    inputTarget: { toolInput: decl.name },
    inputRoot: `${decl.name}.input`,
    outputTarget: decl.returns,
    outputRoot: `${decl.name}.output`,
    outputIsObject: decl.returns.kind === "NamedType",
    errorTarget: options.error === undefined ? undefined : { schema: options.error },
    errorRoot: `${decl.name}.error`,
    needs: decl.needs.map((n) => ({ name: n.name, type: n.type, typeLabel: typeText(n.type), fields: schemaFields(program, n.type), memo: undefined })),
    handler: undefined,
    wantsSignal: true,
    fingerprint: fingerprint.write,
    deferredFingerprint: fingerprint,
    // Set here, filled later: every plan keeps one shape, so the steps' property reads stay monomorphic.
    stringKeyPrefix: undefined,
  };
};

/** The plan of a name the program does not declare: step 1 rejects it. */
export const undeclaredToolPlan = (name: string): ToolPlan => ({
  name,
  options: defaultToolOptions(),
  inputTarget: { toolInput: name },
  inputRoot: `${name}.input`,
  outputRoot: `${name}.output`,
  outputIsObject: false,
  errorRoot: `${name}.error`,
  needs: [],
  wantsSignal: true,
  fingerprint: canonicalJson,
});

export const bindHandler = (plan: ToolPlan, handler: ToolHandler): void => {
  plan.handler = handler;
  plan.wantsSignal = handlerReadsSignal(handler);
};

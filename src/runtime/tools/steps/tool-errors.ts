/**
 * Every error the pipeline raises, in one catalog (one constructor per message), so the
 * wording lives in one place and tests can quote it. Messages marked *exact* are the spec's.
 * None of them interpolates an env value or a `needs` value: only names of tools,
 * contexts, fields and variables.
 */
import { handlerSite, handlerStack } from "./handler-location";
import { LumaError, runtimeError, startupError } from "../../../diagnostics/luma-error";

const q = (s: string) => `'${s}'`;
/** A TOOL_ERROR_INVALID keeps the code the handler threw, when it is a string. */
const thrownCodeDetails = (code: unknown) => ({ code: typeof code === "string" ? code : undefined });
const inFlight = (tools: readonly string[]) =>
  tools.length === 0 ? "" : ` (while ${tools.length === 1 ? "tool" : "tools"} ${tools.map(q).join(", ")} ${tools.length === 1 ? "was" : "were"} running)`;

export const toolErrors = {
  notDeclared: (tool: string) => runtimeError("TOOL_NOT_FOUND", `Tool ${q(tool)} is not declared in the program.`),
  notRegistered: (tool: string) =>
    runtimeError("TOOL_NOT_FOUND", `${q(tool)} is not registered in the tool registry.`),

  /** *exact* (spec §8) */
  missingCredential: (tool: string, variable: string) =>
    runtimeError("TOOL_PERMISSION_DENIED", `Tool ${q(tool)} is missing credential: ${variable}.`),
  /** *exact* (spec §8) */
  scopeDenied: (tool: string, scope: string) =>
    runtimeError("TOOL_PERMISSION_DENIED", `Tool ${q(tool)} scope access was denied: ${scope}.`),
  writeDenied: (tool: string, agent: string) =>
    runtimeError("TOOL_PERMISSION_DENIED", `Tool ${q(tool)} writes, and agent ${q(agent)} has tool_policy deny_write.`),
  approvalUnavailable: (tool: string) =>
    runtimeError(
      "TOOL_PERMISSION_DENIED",
      `Tool ${q(tool)} needs approval: it is not listed in LUMA_APPROVED_TOOLS and no interactive terminal can approve it.`,
    ),
  approvalRefused: (tool: string) => runtimeError("TOOL_PERMISSION_DENIED", `Tool ${q(tool)} was not approved.`),
  /** `approval: Schema` on a run that cannot ask anyone for the note. */
  approvalNoteUnavailable: (tool: string, note: string) =>
    runtimeError(
      "TOOL_PERMISSION_DENIED",
      `Tool ${q(tool)} needs approval with a ${note}: no interactive terminal, MCP client or journal can supply one.`,
    ),

  /** A client tool (`handler: "client"`) whose call nobody can answer: no terminal, no journal, no MCP client that elicits. */
  clientUnanswered: (tool: string, returns: string, why = "no interactive terminal, MCP client or journal can answer it") =>
    runtimeError("CLIENT_TOOL_UNANSWERED", `Client tool ${q(tool)} needs an answer (a ${returns}) from the caller: ${why}.`),
  /** The person asked for a client tool's answer declined to give one. */
  clientDeclined: (tool: string) => runtimeError("CLIENT_TOOL_UNANSWERED", `Client tool ${q(tool)} was not answered: the caller declined.`),

  inputInvalid: (root: string, messages: string[], issues: unknown) =>
    runtimeError("TOOL_INPUT_INVALID", messages.join(" ") || `${root} is invalid.`, { details: { issues } }),
  idempotencyKeyMissing: (tool: string, path: string) =>
    runtimeError("TOOL_INPUT_INVALID", `${tool}.input.${path} is required as the idempotency_key of tool ${q(tool)}.`),

  contextNotAllowed: (tool: string, agent: string, context: string) =>
    runtimeError("TOOL_CONTEXT_INVALID", `Agent ${q(agent)} does not allow tool context ${q(context)} (needed by tool ${q(tool)}).`),
  contextUndefined: (tool: string, context: string) =>
    runtimeError("TOOL_CONTEXT_INVALID", `Tool ${q(tool)} needs context ${q(context)}, which tool_contexts does not define.`),
  contextVariableMissing: (context: string, field: string, variable: string) =>
    runtimeError("TOOL_CONTEXT_INVALID", `Context ${q(context)} field ${q(field)}: environment variable ${variable} is not set.`),
  contextParseFailed: (context: string, field: string, variable: string, kind: string) =>
    runtimeError("TOOL_CONTEXT_INVALID", `Context ${q(context)} field ${q(field)}: environment variable ${variable} is not a valid ${kind}.`),
  contextFieldMissing: (context: string, field: string, type: string) =>
    runtimeError("TOOL_CONTEXT_INVALID", `Context ${q(context)} does not provide field ${q(field)} required by ${type}.`),
  contextFieldInvalid: (context: string, field: string, variable: string | undefined, type: string, rule: string) =>
    runtimeError(
      "TOOL_CONTEXT_INVALID",
      `Context ${q(context)} field ${q(field)}${variable ? ` (from ${variable})` : ""} does not match ${type} (${rule}).`,
    ),

  idempotencyConflict: (tool: string, keyPath: string) =>
    runtimeError(
      "TOOL_IDEMPOTENCY_CONFLICT",
      `Tool ${q(tool)} was called again with the same idempotency key (${keyPath}) and a different input.`,
    ),

  idempotencyStillRunning: (tool: string, keyPath: string, ms: number) =>
    runtimeError(
      "TOOL_IDEMPOTENCY_CONFLICT",
      `Tool ${q(tool)}: a call with the same idempotency key (${keyPath}) was still running after ${ms} ms.`,
      { retryable: true },
    ),

  /**
   * A waiter on a claim held by a call of this process that timed out while its handler
   * still runs: the same code and retryability as `idempotencyStillRunning` (it is the
   * idempotency lookup that gave up, not this call's handler), with what is known.
   */
  idempotencyOutcomeUnknown: (tool: string, keyPath: string, ms: number) =>
    runtimeError(
      "TOOL_IDEMPOTENCY_CONFLICT",
      `Tool ${q(tool)}: outcome unknown: an earlier call with the same idempotency key (${keyPath}) timed out, and its handler was still running when this call had waited ${ms} ms; the key stays claimed until it settles.`,
      { retryable: true },
    ),
  /** TOOL_TIMEOUT of an idempotent call whose handler still runs: its claim is kept (timed-out-claim.ts). */
  timeoutClaimKept: (timeout: LumaError, keyPath: string) =>
    runtimeError(
      "TOOL_TIMEOUT",
      `${timeout.message} Its outcome is unknown: the idempotency key (${keyPath}) stays claimed until the handler settles.`,
      { retryable: true, details: timeout.details },
    ),

  timeout: (tool: string, ms: number) =>
    runtimeError("TOOL_TIMEOUT", `Tool ${q(tool)} timed out after ${ms} ms.`, { retryable: true }),
  /** `details.name` keeps the thrown class (TypeError, RangeError…) for the catch variable. */
  handlerExit: (tool: string, call: string) =>
    runtimeError("TOOL_HANDLER_ERROR", `Tool ${q(tool)} called ${call}: a tool handler cannot end the run.`, {
      retryable: false,
      details: { name: "ExitAttempt" },
    }),
  strayExit: (call: string, tools: readonly string[]) =>
    runtimeError(
      "TOOL_HANDLER_ERROR",
      `A tool module called ${call} outside a tool call${inFlight(tools)}: a tool handler cannot end the run.`,
    ),
  strayThrow: (message: string, tools: readonly string[]) =>
    runtimeError("TOOL_HANDLER_ERROR", `A tool module threw outside a tool call${inFlight(tools)}: ${message}`),
  /** The handler's own file:line closes the message; its stack is what LUMA_DEBUG=1 shows. */
  handlerError: (message: string, cause: unknown) => {
    const site = handlerSite(cause);
    return runtimeError("TOOL_HANDLER_ERROR", site === undefined ? message : `${message} (at ${site})`, {
      retryable: false,
      details: cause instanceof Error ? { name: cause.name } : undefined,
      debugStack: handlerStack(cause),
    });
  },
  errorInvalid: (tool: string, messages: string[], thrownCode: unknown) =>
    runtimeError("TOOL_ERROR_INVALID", `Tool ${q(tool)} threw an error that does not match its error schema: ${messages.join(" ")}`, {
      details: thrownCodeDetails(thrownCode),
    }),
  errorDetailsNotJson: (tool: string, message: string, thrownCode: unknown) =>
    runtimeError("TOOL_ERROR_INVALID", `Tool ${q(tool)} threw an error that cannot be passed on: ${message}`, {
      details: thrownCodeDetails(thrownCode),
    }),

  outputNotObject: (root: string, got: string) =>
    runtimeError("TOOL_OUTPUT_INVALID", `${root} must be an object, got ${got}.`),
  outputInvalid: (root: string, messages: string[], issues: unknown) =>
    runtimeError("TOOL_OUTPUT_INVALID", messages.join(" ") || `${root} is invalid.`, { details: { issues } }),

  circuitOpened: (limit: number, cause: LumaError) =>
    runtimeError("TOOL_CIRCUIT_OPEN", `Tool failure limit reached (${limit}) in this method call: ${cause.message}`, {
      retryable: false,
      details: { limit, cause: { code: cause.code, message: cause.message } },
    }),
  circuitOpen: (tool: string, limit: number) =>
    runtimeError("TOOL_CIRCUIT_OPEN", `Tool ${q(tool)} was not run: the circuit is open after ${limit} tool failures in this method call.`, {
      retryable: false,
      details: { limit },
    }),

  /** *exact* (spec §4), a startup error. */
  cacheWithNeeds: (tool: string) => startupError(`Cache cannot be used on a tool that uses needs: ${tool}`, { catalogCode: "E0604" }),
};

/**
 * `resources/read` of a served query (served-resources.ts): the URI names the query and its
 * arguments, and the read is one call of the query through the program's pipeline, as a
 * `tools/call` of it would be. The contents are its JSON result.
 *
 * A read that fails is a JSON-RPC error, as the protocol has no error result for resources:
 * arguments the query's contract refuses are invalid params (−32602), with the validation
 * message; any other failure is an internal error (−32603) whose message is the error as
 * `tools/call` would give it (`{"code":…,"message":…,"retryable":…}`).
 */
import { INTERNAL_ERROR, INVALID_PARAMS, ProtocolError } from "./protocol-error";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { asLumaError } from "../runtime/interpreter/runtime-errors";
import type { CallOptions, ServeCallDeps } from "./serve-call";
import type { ServedResources } from "./served-resources";

export async function readResource(deps: ServeCallDeps, resources: ServedResources, uri: string, opts: CallOptions): Promise<ReadResourceResult> {
  const { query, input } = resources.resolve(uri);
  let value: unknown;
  try {
    value = await deps.tools.call({ tool: query.tool, input, mode: "direct", agent: query.agent, methodCall: query.agent ? { failures: 0 } : undefined, signal: opts.signal, approve: opts.approve, progress: opts.progress, scopes: opts.scopes });
  } catch (e) {
    const error = asLumaError(e, deps.interpreter.sourceOf, { file: "", start: 0, end: 0 });
    const body = JSON.stringify({ code: error.code ?? "RUNTIME_ERROR", message: error.message, retryable: error.retryable });
    throw new ProtocolError(error.code === "TOOL_INPUT_INVALID" ? INVALID_PARAMS : INTERNAL_ERROR, body);
  }
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value ?? null) }] };
}

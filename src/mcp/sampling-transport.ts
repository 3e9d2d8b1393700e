/**
 * The ask transport of `luma mcp`: a `provider: "mcp"` model's request
 * (runtime/providers/mcp/mcp-sampling.ts) goes to the MCP client whose call is running —
 * `sampling/createMessage`, on that call's stream — and every other request to the network as
 * in a run. The client is found the way a call's log lines are (call-notices.ts): the async
 * context the `ask` runs in.
 *
 * A client that did not declare the `sampling` capability cannot be asked: the ask fails with
 * PROVIDER_ERROR naming the model and the client. Tools go with the request only where the
 * client can take them (protocol 2025-11-25 and its `sampling.tools` capability); elsewhere the
 * model is asked without them. The client's refusal, its error and no answer within the
 * request's time are PROVIDER_ERRORs too, never retried (a person may have said no).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { runtimeError } from "../diagnostics/luma-error";
import type { Transport } from "../runtime/providers/transport";
import { currentSampler } from "./call-notices";
import { withoutPrefix } from "./elicit-value";

/** Asks the calling client for one sampling answer (the params as mcp-sampling.ts built them). */
export type Sampler = (params: Record<string, unknown>, model: string, timeoutMs: number | undefined) => Promise<unknown>;

const who = (model: string) => `Model '${model}' (provider "mcp")`;

/** The sampler of one call of a session. */
export function sessionSampler(server: Server, call: { signal: AbortSignal; requestId: string | number }, toolsAllowed: () => boolean): Sampler {
  return async (params, model, timeoutMs) => {
    const caps = server.getClientCapabilities();
    const client = server.getClientVersion()?.name ?? "unnamed";
    if (!caps?.sampling) {
      throw runtimeError("PROVIDER_ERROR", `${who(model)} cannot ask the MCP client '${client}': it did not declare the sampling capability.`);
    }
    const request = { ...params };
    if (!caps.sampling.tools || !toolsAllowed()) {
      delete request.tools;
      delete request.toolChoice;
    }
    try {
      return await server.createMessage(request as never, { signal: call.signal, relatedRequestId: call.requestId, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) });
    } catch (e) {
      if (!(e instanceof McpError) || call.signal.aborted) throw e;
      const why = e.code === ErrorCode.RequestTimeout ? `it did not answer within ${timeoutMs} ms` : withoutPrefix(e.message);
      throw runtimeError("PROVIDER_ERROR", `${who(model)}: the MCP client '${client}' did not sample: ${why}.`);
    }
  };
}

/** `inner` for every provider but "mcp"; the calling client for "mcp" (the run's own error outside a call). */
export const samplingTransport =
  (inner: Transport): Transport =>
  async (req, info) => {
    const sample = info.provider === "mcp" ? currentSampler() : undefined;
    if (sample === undefined) return inner(req, info);
    const result = await sample(JSON.parse(req.body) as Record<string, unknown>, info.decl, req.timeoutMs);
    return { status: 200, headers: {}, text: JSON.stringify(result) };
  };

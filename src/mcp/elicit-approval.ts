/**
 * Approval of one call, asked of the MCP client through elicitation: a form with one boolean,
 * `approve`, on the stream of the `tools/call` it belongs to. `tool_policy: "approval"` and a
 * tool's `approval: true` ask it; a client without the elicitation capability cannot be asked
 * (TOOL_PERMISSION_DENIED), and a request nobody answers is a refusal once the tool's timeout
 * passed (the client is sent `notifications/cancelled` for it).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { runtimeError } from "../diagnostics/luma-error";
import { withoutPrefix } from "./elicit-value";

const approvalUnsupported = (tool: string) =>
  runtimeError(
    "TOOL_PERMISSION_DENIED",
    `Tool '${tool}' needs approval: it is not listed in LUMA_APPROVED_TOOLS and the MCP client cannot be asked (it does not support elicitation).`,
  );

const approvalUnanswered = (tool: string, ms: number) =>
  runtimeError(
    "TOOL_PERMISSION_DENIED",
    `Tool '${tool}' was not approved: the MCP client did not answer the approval request within ${ms} ms (the tool's timeout).`,
  );

/**
 * Asks the client to approve one call of `tool`; true only for an accepted form that says yes.
 * An approval nobody answers is a refusal once the tool's timeout passes (the SDK's own
 * 60 s request timeout made it a RUNTIME_ERROR, whatever the tool's timeout).
 */
export const elicitApproval = async (server: Server, tool: string, withinMs: number, call: { signal: AbortSignal; requestId: string | number }, writes: boolean): Promise<boolean> => {
  if (!server.getClientCapabilities()?.elicitation) throw approvalUnsupported(tool);
  const asking = server.elicitInput(
    {
      message: writes
        ? `Approve a call of tool '${tool}'? It writes (side_effects: "write") and needs approval (its agent's tool_policy "approval", or its own approval: true).`
        : `Approve a call of tool '${tool}'? It needs approval (approval: true).`,
      requestedSchema: {
        type: "object",
        properties: { approve: { type: "boolean", title: `Run ${tool}`, description: "true runs the tool once" } },
        required: ["approve"],
      },
    },
    // On the stream of the tools/call it belongs to (Streamable HTTP), cancelled with it; the
    // SDK sends the client notifications/cancelled when the time is up.
    { signal: call.signal, relatedRequestId: call.requestId, timeout: Math.min(withinMs, MAX_TIMER_MS) },
  );
  let answer: Awaited<typeof asking>;
  try {
    answer = await asking;
  } catch (e) {
    if (!(e instanceof McpError) || call.signal.aborted) throw e;
    if (e.code === ErrorCode.RequestTimeout) throw approvalUnanswered(tool, withinMs);
    // An answer that does not fit the form (the SDK checks it), or the client's error: not approved, saying why.
    throw runtimeError("TOOL_PERMISSION_DENIED", `Tool '${tool}' was not approved: the MCP client's answer was not taken: ${withoutPrefix(e.message)}.`);
  }
  return answer.action === "accept" && answer.content?.approve === true;
};

/** setTimeout's largest delay: a tool timeout past it waits that long. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The handler of a tool declared with `mcp: "server"`: one `tools/call` on that server.
 * It sits at step 10 of the pipeline like any module handler, so the contract's input was
 * validated before the call and its output is validated after it (step 11).
 *
 * - The pipeline's AbortSignal goes to the SDK request: when the tool's timeout passes (or
 *   the caller cancels), the SDK sends `notifications/cancelled` for the request.
 * - The value is made by content-values.ts from what the contract takes: every content type
 *   as a typed `McpContent` for a contract with a `content` field, else `structuredContent`,
 *   the text, or a JSON-object text; content the contract cannot take fails the call.
 * - A task-based tool (`execution.taskSupport: "required"`) is called as a task (call now,
 *   fetch later): the SDK polls `tasks/get` and reads `tasks/result`; the pipeline's signal
 *   still bounds the whole.
 * - `isError: true` is the tool's typed error: a `{ code, message, retryable, details }`
 *   body (what `luma mcp` sends) keeps its fields; any other text becomes MCP_TOOL_ERROR.
 * - Text from the server goes into a message without the connection's secrets (a header
 *   value it echoes back).
 * - A connection that closed is TOOL_UNAVAILABLE (retryable); another protocol error is
 *   MCP_ERROR, and so are an answer that is not a valid CallToolResult and a connection Luma
 *   closed because the server broke a limit (an answer over the stdio message size):
 *   retrying would meet them again. None of these
 *   touches the server's other tools, nor other servers.
 */
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { LumaToolError } from "../luma-module";
import type { ToolHandler } from "../runtime/tools/registry/registry-types";
import type { ServerConnection } from "./connect-server";
import { resultValue, textOf, type ResultShape } from "./content-values";
import { callAsTask } from "./task-call";
import { currentElicitor } from "./call-notices";
import { currentQuestions } from "../runtime/tools/steps/journaled-questions";
import { progressOf } from "./server-notices";

/** The SDK's own request timeout is off: the tool's timeout (step 10) bounds the call. */
const NO_SDK_TIMEOUT = 2_147_483_647;
const MAX_MESSAGE_CHARS = 500;

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const clip = (text: string) => (text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text);

function toolError(tool: string, conn: ServerConnection, content: unknown): LumaToolError {
  const text = conn.redact(textOf(content));
  const body = parseJson(text) as Record<string, unknown> | undefined;
  if (body && typeof body === "object" && typeof body.code === "string" && typeof body.message === "string") {
    return new LumaToolError({ code: body.code, message: body.message, retryable: body.retryable === true, details: body.details });
  }
  return new LumaToolError({
    code: "MCP_TOOL_ERROR",
    message: `MCP server '${conn.name}' reported an error from tool '${tool}'${text ? `: ${clip(text)}` : "."}`,
  });
}

interface ShapeIssue {
  path: (string | number)[];
  message: string;
}

/** `content: Invalid input: expected array, received string; …` for a ZodError, else undefined. */
const shapeIssues = (e: unknown): string | undefined => {
  const issues = (e as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  return (issues as ShapeIssue[]).map((i) => `${i.path.join(".") || "(result)"}: ${i.message}`).join("; ");
};

/** What the contract's return schema takes (content-values.ts); `takesText`: it has a `text` field. */
export interface ContractTakes {
  shape: ResultShape;
  takesText: boolean;
}

export function remoteHandler(conn: ServerConnection, tool: string, remoteName: string, takes: ContractTakes): ToolHandler {
  return async (input: unknown, signal?: AbortSignal) => {
    const client = await conn.client(tool);
    let result: Record<string, unknown>;
    // Under `luma mcp`: the server's elicitation during this call goes to the served call's client.
    const release = conn.forwarders.enter(currentElicitor());
    // A durable run with nobody at the terminal: the server's questions are the journal's (journaled-questions.ts).
    const questions = currentQuestions();
    const releaseJournaled = conn.forwarders.enterJournaled(questions);
    try {
      const params = { name: remoteName, arguments: input as Record<string, unknown> };
      // With a trace, the call carries a progress token and the server's progress becomes `mcp.progress` events.
      const onprogress = progressOf(conn.sinks, tool);
      const options = { signal, timeout: NO_SDK_TIMEOUT, ...(onprogress ? { onprogress } : {}) };
      const call = () => (conn.tools.get(remoteName)?.execution?.taskSupport === "required" ? callAsTask(client, params, options) : client.callTool(params, undefined, options));
      // A server asking for more scopes mid-run (a 403 step-up the person must authorize): once more after that.
      result = await call().catch(async (e: unknown) => {
        if (await conn.reauthorize(e)) return call();
        throw e;
      });
    } catch (e) {
      // Aborted by the pipeline: its own error (TOOL_TIMEOUT) has already settled the call.
      if (signal?.aborted) throw signal.reason;
      // The SDK's schema check of the answer (a ZodError): the server was reached and answered
      // wrongly — not an unreachable server to retry, and not a multi-line dump in a message.
      const said = (text: string) => clip(conn.redact(text));
      const issues = shapeIssues(e);
      if (issues !== undefined) {
        throw new LumaToolError({ code: "MCP_ERROR", message: `MCP server '${conn.name}' answered tool '${tool}' with an invalid result: ${said(issues)}.` });
      }
      const closed = !(e instanceof McpError) || e.code === ErrorCode.ConnectionClosed;
      const fault = closed ? conn.fault() : undefined;
      if (fault !== undefined) {
        // Not retryable: the same call would send the same answer. The next call restarts the server.
        conn.lost();
        throw new LumaToolError({ code: "MCP_ERROR", message: `MCP server '${conn.name}' ${fault} during tool '${tool}'; Luma closed the connection.` });
      }
      if (closed) {
        if (e instanceof McpError || /not connected/i.test((e as Error).message)) conn.lost();
        throw new LumaToolError({
          code: "TOOL_UNAVAILABLE",
          message: `Tool '${tool}' is unavailable: MCP server '${conn.name}' ${e instanceof McpError ? "closed the connection during the call" : `cannot be reached (${said((e as Error).message)})`}.`,
          retryable: true,
        });
      }
      throw new LumaToolError({ code: "MCP_ERROR", message: `MCP server '${conn.name}' refused tool '${tool}': ${said(e.message)}` });
    } finally {
      release();
      releaseJournaled();
    }
    // A question was recorded as waiting (or its recorded answer refused): the run stops here, whatever the server made of the cancel.
    if (questions?.stop !== undefined) throw questions.stop;
    if (result.isError === true) throw toolError(tool, conn, result.content);
    return resultValue(result, takes.shape, { server: conn.name, tool, remoteName }, takes.takesText);
  };
}

/**
 * An MCP server's `sampling/createMessage` request, answered by the model its config entry
 * names (`mcp_servers.<name>.sampling: { model, approval }`). The client announces the
 * sampling capability only for such a server; any other server's request is refused by the
 * SDK as a method this client does not have (-32601).
 *
 * `approval: "ask"` (the default) asks like a tool approval before the model is asked: the
 * entry `sampling:<server>` in LUMA_APPROVED_TOOLS approves every request of that server,
 * else the person at the terminal is asked (the prompt names `sampling:<server>` and shows
 * the request's last message) — under `luma mcp`, the client of the served call that reached
 * the server, through elicitation; in a durable run with neither, the journal (the request waits
 * for `luma approve` / `luma deny`, runtime/tools/steps/journaled-questions.ts); with none, or on a no, the request is refused with the
 * protocol's "user rejected" error (-1). `approval: "allow"` answers without asking.
 *
 * The answer goes through the run's `ask` (runtime/ask/sample-with-model.ts): the fake or real
 * provider, the trace, `--usage`. Luma answers text: a request whose messages hold images,
 * audio or tool results is refused (-32602) rather than asked with a part of it missing.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CreateMessageRequestSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { McpSamplingConfig } from "../config/config-types";
import { isLumaError } from "../diagnostics/luma-error";
import type { LateRunParts, SampledMessage } from "../runtime/tools/registry/registry-types";
import type { Elicitor } from "./call-notices";
import type { ForwardersInFlight } from "./forward-elicitation";

/** The protocol's code for a request the user rejected (MCP sampling, "Error Handling"). */
const USER_REJECTED = -1;
/** How long a person is given to approve one request. */
const APPROVE_WITHIN_MS = 600_000;
/** How much of the last message the approval prompt shows. */
const SHOWN_CHARS = 300;

type Content = { type: string; text?: string };

/** The request's messages as text; undefined when one holds anything but text. */
const textMessages = (messages: readonly { role: string; content: Content | Content[] }[]): SampledMessage[] | undefined => {
  const out: SampledMessage[] = [];
  for (const m of messages) {
    const parts = Array.isArray(m.content) ? m.content : [m.content];
    if (parts.some((p) => p.type !== "text") || (m.role !== "user" && m.role !== "assistant")) return undefined;
    out.push({ role: m.role, text: parts.map((p) => p.text ?? "").join("\n") });
  }
  return out;
};

/**
 * A JSON-RPC error for the server: the SDK sends an error's `code` and `message` as they are
 * (an McpError's message already carries "MCP error <code>:", which the server adds again).
 */
const protocolError = (code: number, message: string) => Object.assign(new Error(message), { code });

const listed = (env: Record<string, string | undefined>, entry: string) =>
  (env.LUMA_APPROVED_TOOLS ?? "").split(",").some((t) => t.trim() === entry);

/**
 * Under `luma mcp`: the approval asked of the client of the served call that reached the
 * server, as a tool approval is (a form with one boolean, `approve`).
 */
const approvedBy = async (forward: Elicitor, server: string, model: string, shown: string): Promise<boolean> => {
  const answer = await forward({
    message: `Approve a sampling request of MCP server '${server}'? Model '${model}' would answer: ${JSON.stringify(shown)}`,
    requestedSchema: { type: "object", properties: { approve: { type: "boolean", title: `Let ${model} answer ${server}`, description: "true answers this request once" } }, required: ["approve"] },
  });
  return answer.action === "accept" && (answer.content as { approve?: unknown } | undefined)?.approve === true;
};

/** Answers this client's sampling requests from server `server` with the configured model. */
export function answerSampling(
  client: Client,
  server: string,
  config: McpSamplingConfig,
  models: LateRunParts,
  env: Record<string, string | undefined>,
  { calls, forward, redact }: { calls: ForwardersInFlight; forward: boolean; redact: (text: string) => string },
): void {
  const forwarders = forward ? calls : undefined;
  const name = `sampling:${server}`;
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const params = request.params as unknown as { messages: { role: string; content: Content | Content[] }[]; systemPrompt?: string };
    const messages = textMessages(params.messages);
    if (messages === undefined) throw protocolError(ErrorCode.InvalidParams, `Luma answers sampling with text only: a message of the request holds other content (image, audio, tool use).`);
    const sample = models.sample;
    if (sample === undefined) throw protocolError(ErrorCode.InternalError, `Luma cannot sample yet: the run's models are not open.`);
    if ((config.approval ?? "ask") === "ask" && !listed(env, name)) {
      const last = messages[messages.length - 1]?.text ?? "";
      const shown = last.length > SHOWN_CHARS ? `${last.slice(0, SHOWN_CHARS)}…` : last;
      const forward = forwarders?.only();
      // A durable run with nobody at the terminal: the decision is the journal's (luma approve / luma deny).
      const journaled = models.approve || forward ? undefined : calls.onlyJournaled();
      const decided = journaled && (await journaled.approveSampling({ server, name, shown: redact(`model ${config.model}: ${JSON.stringify(shown)}`), request: { model: config.model, system: params.systemPrompt ?? null, messages } }));
      if (decided === "wait") throw protocolError(USER_REJECTED, `Luma refused the sampling request of MCP server '${server}' for now: it waits for approval in the run's journal.`);
      const approved = models.approve
        ? await models.approve(name, `model ${config.model}: ${JSON.stringify(shown)}`, APPROVE_WITHIN_MS, false)
        : forward
          ? await approvedBy(forward, server, config.model, shown)
          : decided === "approved";
      if (!approved) {
        const why = models.approve || forward || decided !== undefined ? "the person declined it" : `it needs approval: '${name}' is not listed in LUMA_APPROVED_TOOLS and no interactive terminal can approve it`;
        throw protocolError(USER_REJECTED, `Luma refused the sampling request of MCP server '${server}': ${why}.`);
      }
    }
    try {
      const { text } = await sample({ server, model: config.model, system: params.systemPrompt, messages, signal: extra.signal });
      return { role: "assistant", content: { type: "text", text }, model: config.model, stopReason: "endTurn" };
    } catch (e) {
      // The model's failure is the server's error to read; its [CODE] and message only, no stack.
      const why = isLumaError(e) ? `[${e.code}] ${e.message}` : (e as Error).message;
      throw protocolError(ErrorCode.InternalError, `Model '${config.model}' did not answer the sampling request: ${why}`);
    }
  });
}

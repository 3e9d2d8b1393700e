/**
 * An MCP server's sampling request (`mcp_servers.<name>.sampling`, src/mcp/answer-sampling.ts)
 * answered by a model the program declares, through the run's own `ask`: the same provider
 * path, retries, trace events and `--usage` lines as any ask. The request becomes an ask of
 * an agent made for it — named `mcp:<server>`, the config's model, the request's system
 * prompt, no tools — whose earlier messages are sent as a thread's history and whose last
 * user message is the prompt; the answer is the model's plain text (no response format).
 */
import type { AgentDecl, TypeRef } from "../../syntax/ast";
import type { Span } from "../../diagnostics/span";
import { madeAgent } from "../../language/made-agent";
import type { SampleWithModel } from "../tools/registry/registry-types";
import type { TranscriptItem } from "../providers/provider-types";
import type { AskRunner } from "./ask-types";

const NOWHERE: Span = { file: "luma.config.json", start: 0, end: 0 } as Span;

const STRING: TypeRef = { kind: "PrimType", name: "string", span: NOWHERE };

/** The agent one server's requests are asked as: its plan is cached per (agent, site), so one per server and system prompt. */
const agentFor = (server: string, model: string, system: string | undefined): AgentDecl => madeAgent(`mcp:${server}`, model, system);

export function sampleWithModel(ask: AskRunner): SampleWithModel {
  const agents = new Map<string, { agent: AgentDecl; site: object }>();
  return async ({ server, model, system, messages, signal }) => {
    const key = JSON.stringify([server, model, system ?? null]);
    let made = agents.get(key);
    if (made === undefined) agents.set(key, (made = { agent: agentFor(server, model, system), site: {} }));
    // The last user message is the prompt; what came before it is history, in order.
    const last = messages.length > 0 && messages[messages.length - 1]!.role === "user" ? messages[messages.length - 1]! : undefined;
    const history: TranscriptItem[] = (last ? messages.slice(0, -1) : messages).map((m) =>
      m.role === "user" ? { kind: "user", text: m.text } : { kind: "assistant", native: undefined, text: m.text },
    );
    let text = "";
    const answer = await ask.ask({
      agent: made.agent,
      methodCall: { failures: 0, signal },
      prompt: last?.text ?? "",
      target: STRING,
      site: made.site,
      location: `mcp_servers.${server}.sampling`,
      onText: (delta) => void (text += delta),
      thread: history.length > 0 ? { history, onExchange: () => {} } : undefined,
      signal,
    });
    return { text: typeof answer === "string" ? answer : text };
  };
}

/**
 * What `luma serve` serves (issue #26 §4): every agent of the program without parameters, or
 * only those `--agent A` names (repeatable). Each agent's methods are `POST
 * /agents/{Agent}/{method}` — their arguments checked by the same JSON Schema validation
 * `luma mcp` serves them with (mcp/served-tools.ts) — and an agent that declares a `model`
 * also answers `POST /chat/{Agent}`. Decided once at start-up; an `--agent` that names no
 * agent, or one with parameters (no request may supply them), does not start (E0672).
 */
import type { AgentDecl, Program } from "../syntax/ast";
import type { SchemaTable } from "../schema/schema-table-types";
import { startupError } from "../diagnostics/luma-error";
import { servedTools, type ServedMethod } from "../mcp/served-tools";
import { askSettingsOf } from "../runtime/tools/steps/agent-ask-settings";
import { agentNotFound } from "./error-answer";

export interface ServedAgents {
  /** `Agent.method` → its served method. */
  method(agent: string, method: string): ServedMethod;
  /** An agent that chats: served, and declaring a model. */
  chatAgent(agent: string): AgentDecl;
  /** The served agents' names, for the start-up line. */
  names: string[];
}

export function servedAgents(program: Program, schemas: SchemaTable, only: readonly string[]): ServedAgents {
  const agents = program.decls.filter((d): d is AgentDecl => d.kind === "Agent");
  for (const name of only) {
    const agent = agents.find((a) => a.name === name);
    if (agent === undefined) {
      throw startupError(`luma serve --agent ${name}: the program declares no agent '${name}' (agents: ${agents.map((a) => a.name).join(", ") || "none"}).`, { catalogCode: "E0672" });
    }
    if ((agent.params?.length ?? 0) > 0) {
      throw startupError(`luma serve --agent ${name}: agent '${name}' is declared with parameters, which no HTTP request may supply; serve an agent without them.`, { catalogCode: "E0672" });
    }
  }
  const chosen = agents.filter((a) => (a.params?.length ?? 0) === 0 && (only.length === 0 || only.includes(a.name)));
  const names = new Set(chosen.map((a) => a.name));
  const methods = new Map<string, ServedMethod>();
  for (const t of servedTools(program, schemas, undefined)) if (t.kind === "method" && names.has(t.agent.name)) methods.set(t.name, t);
  const served = (agent: string) => {
    if (!names.has(agent)) throw agentNotFound(`No agent '${agent}' is served here (served: ${[...names].join(", ") || "none"}).`);
    return chosen.find((a) => a.name === agent)!;
  };
  return {
    names: [...names],
    method(agent, method) {
      served(agent);
      const found = methods.get(`${agent}.${method}`);
      if (found === undefined) throw agentNotFound(`Agent '${agent}' has no method '${method}'.`);
      return found;
    },
    chatAgent(agent) {
      const decl = served(agent);
      if (askSettingsOf(decl).model === undefined) throw agentNotFound(`Agent '${agent}' declares no model to chat with.`);
      return decl;
    },
  };
}

/**
 * What `luma serve` serves (issue #26 §4): every agent of the program, or only those `--agent
 * A` names (repeatable). Each agent's methods are `POST /agents/{Agent}/{method}` — their
 * arguments checked by the same JSON Schema validation `luma mcp` serves them with
 * (mcp/served-tools.ts) — and an agent that declares a `model` also answers `POST
 * /chat/{Agent}`. Decided once at start-up; an `--agent` that names no agent does not start
 * (E0672).
 *
 * An agent declared with parameters (`agent Support(user: User)`) runs with arguments from
 * one of two places (served-agent-args.ts): fixed for the server's life by `--agent-args
 * Support='{…}'`, or given by each request under the reserved key `$agent`.
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

const hasParams = (a: AgentDecl) => (a.params?.length ?? 0) > 0;

export function servedAgents(program: Program, schemas: SchemaTable, only: readonly string[]): ServedAgents {
  const agents = program.decls.filter((d): d is AgentDecl => d.kind === "Agent");
  for (const name of only) {
    if (!agents.some((a) => a.name === name)) {
      throw startupError(`luma serve --agent ${name}: the program declares no agent '${name}' (agents: ${agents.map((a) => a.name).join(", ") || "none"}).`, { catalogCode: "E0672" });
    }
  }
  const chosen = agents.filter((a) => only.length === 0 || only.includes(a.name));
  const names = new Set(chosen.map((a) => a.name));
  const methods = new Map<string, ServedMethod>();
  // servedTools serves the methods of agents without parameters, or of the one agent it is given.
  const lists = [servedTools(program, schemas, undefined), ...chosen.filter(hasParams).map((a) => servedTools(program, schemas, a.name))];
  for (const t of lists.flat()) if (t.kind === "method" && names.has(t.agent.name)) methods.set(t.name, t);
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

/**
 * The tool-related keys of an agent (spec §6) as the tool pipeline sees them: the agent's
 * settings (read once through the agent key table, `agent-ask-settings.ts`) and its
 * name. Top-level calls use TOP_LEVEL_POLICY: no agent policies apply, default timeout.
 */
import { AGENT_KEYS } from "../../../language/keys/agent-keys";
import { defaultsOf } from "../../../language/keys/key-spec";
import type { AgentDecl } from "../../../syntax/ast";
import { askSettingsOf, type AgentSettings } from "./agent-ask-settings";

/**
 * `toolScopes` not given = no scope check; `toolContexts` not given = every context, empty
 * = none. Every field is present (optional ones undefined): all policies share one object
 * shape, read on every call.
 */
export interface AgentPolicy extends AgentSettings {
  /** Undefined for top-level calls. */
  name?: string;
}

export const TOP_LEVEL_POLICY: AgentPolicy = { name: undefined, ...defaultsOf(AGENT_KEYS) };

export const readAgentPolicy = (agent: AgentDecl): AgentPolicy => ({ name: agent.name, ...askSettingsOf(agent) });

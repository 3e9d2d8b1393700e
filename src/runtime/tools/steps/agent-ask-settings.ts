/**
 * An agent's keys (spec §6), read once per agent through the agent key table
 * (`language/keys/agent-keys.ts`): its model, system prompt, tools, and the native-calling
 * limits with their defaults. The tool pipeline's view of the same object is
 * `tools/steps/agent-policy.ts`.
 */
import { AGENT_KEYS } from "../../../language/keys/agent-keys";
import { readKeys, type KeyValues } from "../../../language/keys/key-spec";
import type { AgentDecl } from "../../../syntax/ast";

export type AgentSettings = KeyValues<typeof AGENT_KEYS>;

const cache = new WeakMap<AgentDecl, AgentSettings>();

export function askSettingsOf(agent: AgentDecl): AgentSettings {
  let s = cache.get(agent);
  if (!s) {
    s = readKeys(AGENT_KEYS, agent.entries);
    cache.set(agent, s);
  }
  return s;
}

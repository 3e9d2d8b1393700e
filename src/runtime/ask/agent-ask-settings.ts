/**
 * The `ask`-related keys of an agent (spec §6), read once per agent: its model, system
 * prompt, tools, and the native-calling limits with their defaults.
 */
import type { AgentDecl, ConfigValue } from "../../syntax/ast";
import { readEntries, readNumber, readString, readStringList } from "../tools/steps/config-values";

export interface AgentAskSettings {
  model?: string;
  system?: string;
  tools: string[];
  /** Native tool calls allowed in one ask attempt (default 5; reset on each retry). */
  toolRateLimit: number;
  /** Calls of one provider turn run at most this many at once (default 1). */
  toolConcurrency: number;
  /** Extra attempts of the LLM retry loop (default 0). */
  retries: number;
  /** The whole ask's ceiling in ms, all turns, waits and retries (default 10 min). */
  askTimeout: number;
}

/** `ask_timeout` when an agent sets none: twice a request's default timeout. */
export const DEFAULT_ASK_TIMEOUT_MS = 600_000;

const READERS: Record<string, (v: ConfigValue, s: AgentAskSettings) => void> = {
  model: (v, s) => (s.model = readString(v)),
  system: (v, s) => (s.system = readString(v)),
  tools: (v, s) => (s.tools = readStringList(v) ?? []),
  tool_rate_limit: (v, s) => (s.toolRateLimit = readNumber(v) ?? s.toolRateLimit),
  tool_concurrency: (v, s) => (s.toolConcurrency = Math.max(1, readNumber(v) ?? 1)),
  retries: (v, s) => (s.retries = Math.max(0, readNumber(v) ?? 0)),
  ask_timeout: (v, s) => (s.askTimeout = readNumber(v) ?? s.askTimeout),
};

const cache = new WeakMap<AgentDecl, AgentAskSettings>();

export function askSettingsOf(agent: AgentDecl): AgentAskSettings {
  let s = cache.get(agent);
  if (!s) {
    s = readEntries<AgentAskSettings>(agent.entries, READERS, { tools: [], toolRateLimit: 5, toolConcurrency: 1, retries: 0, askTimeout: DEFAULT_ASK_TIMEOUT_MS });
    cache.set(agent, s);
  }
  return s;
}

/**
 * The tool-related keys of an agent (spec §6), parsed once per agent. Top-level calls use
 * TOP_LEVEL_POLICY: no agent policies apply, default timeout.
 */
import type { AgentDecl, ConfigValue } from "../../../syntax/ast";
import { readEntries, readNumber, readString, readStringList } from "./config-values";

export type ToolPolicy = "allow" | "deny_write" | "approval";

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

export interface AgentPolicy {
  /** Undefined for top-level calls. */
  name?: string;
  /** Not given = no scope check. */
  toolScopes?: ReadonlySet<string>;
  /** Not given = every context; empty = none. */
  toolContexts?: ReadonlySet<string>;
  toolPolicy: ToolPolicy;
  toolTimeout: number;
  toolTimeoutMax?: number;
  failureLimit?: number;
}

/** Every field present (optional ones undefined): all policies share one object shape, read on every call. */
const basePolicy = (name: string | undefined): AgentPolicy => ({
  name,
  toolScopes: undefined,
  toolContexts: undefined,
  toolPolicy: "allow",
  toolTimeout: DEFAULT_TOOL_TIMEOUT_MS,
  toolTimeoutMax: undefined,
  failureLimit: undefined,
});

export const TOP_LEVEL_POLICY: AgentPolicy = basePolicy(undefined);

const asSet = (v: ConfigValue) => {
  const list = readStringList(v);
  return list && new Set(list);
};

const READERS: Record<string, (v: ConfigValue, p: AgentPolicy) => void> = {
  tool_scopes: (v, p) => (p.toolScopes = asSet(v)),
  tool_contexts: (v, p) => (p.toolContexts = asSet(v)),
  tool_policy: (v, p) => {
    const s = readString(v);
    if (s === "allow" || s === "deny_write" || s === "approval") p.toolPolicy = s;
  },
  tool_timeout: (v, p) => (p.toolTimeout = readNumber(v) ?? p.toolTimeout),
  tool_timeout_max: (v, p) => (p.toolTimeoutMax = readNumber(v)),
  tool_failure_limit: (v, p) => (p.failureLimit = readNumber(v)),
};

export const readAgentPolicy = (agent: AgentDecl): AgentPolicy =>
  readEntries(agent.entries, READERS, basePolicy(agent.name));

/**
 * The keys of an `agent` block (spec §6; `ask_timeout` is an extension): the one table
 * the checker, the runtime's agent settings (`agent-ask-settings.ts`, `agent-policy.ts`),
 * completion and the first-hour hints read. Whether `ask` needs a `model` is a rule file.
 */
import { agentList, int, modelRef, nonNegative, oneOf, str, stringSet, toolList } from "../value-kinds";
import { keyTable } from "./key-spec";

export const AGENT_KEYS = keyTable({
  model: { kind: modelRef, doc: "The model every ask of this agent uses; required if a method uses ask." },
  system: { kind: str, doc: "System prompt for every ask." },
  tools: { kind: toolList, default: [], doc: "Tools, queries and commands the methods call and the model sees." },
  // 0 is meaningful: every native call is rate-limited and the model must answer directly.
  // Issue #27 §2: the model may hand the ask over to one of these (`transfer_to_Refunds`, runtime/ask/handoffs.ts).
  handoffs: { kind: agentList, default: [], doc: "Agents the model may hand the conversation over to (tools transfer_to_<Agent>)." },
  max_handoffs: { kind: int(0), default: 3, field: "maxHandoffs", doc: "Handoffs allowed in one ask started by this agent; once reached, no transfer tool is offered." },
  tool_rate_limit: { kind: int(0), default: 5, field: "toolRateLimit", doc: "Native tool calls allowed in one ask (reset on each retry)." },
  tool_concurrency: { kind: int(1), default: 1, field: "toolConcurrency", doc: "Tool calls of one provider turn that run at once." },
  tool_failure_limit: { kind: int(1), field: "failureLimit", doc: "Tool failures in one method call before calls fail with TOOL_CIRCUIT_OPEN." },
  tool_policy: { kind: oneOf("allow", "deny_write", "approval"), default: "allow", field: "toolPolicy", doc: 'Which tools may run: "allow", "deny_write" or "approval".' },
  // Not given = no scope check (undefined); given = a tool with another scope is denied.
  // "tell_model" (issue #27 §3): a native call refused by policy becomes a tool error result the model reads.
  on_denied: { kind: oneOf("fail", "tell_model"), default: "fail", field: "onDenied", doc: 'A native call refused by policy: "fail" ends the ask, "tell_model" returns the refusal to the model.' },
  tool_scopes: { kind: stringSet, field: "toolScopes", doc: "The scopes a tool's scope must be in; not given, no scope check." },
  // Not given = every context; [] = none.
  tool_contexts: { kind: stringSet, field: "toolContexts", doc: "The tool_contexts entries tools may use; not given, all; [], none." },
  tool_timeout: { kind: int(1), default: 30_000, field: "toolTimeout", doc: "ms, a tool's timeout when it sets none." },
  tool_timeout_max: { kind: int(1), field: "toolTimeoutMax", doc: "ms, the ceiling on every tool's timeout." },
  retries: { kind: int(0), default: 0, doc: "Extra attempts of an ask (invalid final JSON, provider failure)." },
  // ms, a whole `ask`: every turn, wait and retry; twice a request's default timeout.
  // Issue #27 §5: one outside call into the agent, sub-agents included (runtime/usage/budgets.ts).
  budget_tokens: { kind: int(1), field: "budgetTokens", doc: "Input + output tokens one call into the agent may use, sub-agents included." },
  budget_usd: { kind: nonNegative, field: "budgetUsd", doc: "USD (from the models' prices) one call into the agent may spend, sub-agents included." },
  ask_timeout: { kind: int(1), default: 600_000, field: "askTimeout", doc: "ms, the ceiling on a whole ask: every turn, wait and retry." },
  // Not given = the whole thread; a tool call is never sent without its result.
  history_limit: { kind: int(1), field: "historyLimit", doc: "The most stored messages of a thread an `ask … in t` sends (the new prompt not counted)." },
});

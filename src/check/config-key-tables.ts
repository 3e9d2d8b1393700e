/**
 * The keys each declaration block accepts (§4 tool options, §5 model keys, §6 agent keys,
 * §12 datasource/query/command keys) and the kind of value each holds. A key not listed
 * is an error; `required` keys must be present.
 *
 * Only value shapes live here; cross-key rules (write tools and cache, base_url for
 * "openai-compatible", idempotency_key naming a parameter…) have their own rule files.
 */
import type { Decl, Entry } from "../syntax/ast";
import {
  bool,
  datasourceRef,
  envName,
  fieldPath,
  int,
  modelRef,
  nonNegative,
  num,
  oneOf,
  schemaRef,
  str,
  stringList,
  toolList,
  type ValueKind,
} from "./config-value-kinds";

export interface KeySpec {
  kind: ValueKind;
  required?: boolean;
}

export type KeyTable = Readonly<Record<string, KeySpec>>;

export const PROVIDERS = ["openai", "openai-compatible", "azure", "anthropic", "gemini"];

export const TOOL_OPTIONS: KeyTable = {
  side_effects: { kind: oneOf("none", "read", "write") },
  cache: { kind: bool },
  scope: { kind: str },
  credential: { kind: envName },
  error: { kind: schemaRef },
  retries: { kind: int(0) },
  retry_backoff: { kind: oneOf("none", "fixed", "exponential") },
  retry_delay: { kind: int(0) },
  // Any integer: zero and below get the spec's exact timeout message (tool-consistency).
  timeout: { kind: int() },
  idempotent: { kind: bool },
  idempotency_key: { kind: fieldPath },
  idempotency_ttl_ms: { kind: int(1) },
  description: { kind: str },
  // The MCP server (luma.config.json `mcp_servers`) whose tool is the handler, and that tool's name there.
  mcp: { kind: str },
  mcp_tool: { kind: str },
};

export const MODEL_KEYS: KeyTable = {
  provider: { kind: oneOf(...PROVIDERS), required: true },
  name: { kind: str, required: true },
  temperature: { kind: num },
  max_tokens: { kind: int(1) },
  base_url: { kind: str },
  api_key_env: { kind: envName },
  deployment: { kind: str },
  api_version: { kind: str },
  // ms, one provider request from connect to its last byte.
  timeout: { kind: int(1) },
  // Which OpenAI API a `provider: "openai"` model speaks (rule model-api): Chat Completions by default.
  api: { kind: oneOf("chat", "responses") },
  // USD per million tokens: `--usage` and the `run.usage` trace event add a cost.
  price_in_per_mtok: { kind: nonNegative },
  price_out_per_mtok: { kind: nonNegative },
};

export const AGENT_KEYS: KeyTable = {
  model: { kind: modelRef },
  system: { kind: str },
  tools: { kind: toolList },
  // 0 is meaningful: every native call is rate-limited and the model must answer directly.
  tool_rate_limit: { kind: int(0) },
  tool_concurrency: { kind: int(1) },
  tool_failure_limit: { kind: int(1) },
  tool_policy: { kind: oneOf("allow", "deny_write", "approval") },
  tool_scopes: { kind: stringList },
  tool_contexts: { kind: stringList },
  tool_timeout: { kind: int(1) },
  tool_timeout_max: { kind: int(1) },
  retries: { kind: int(0) },
  // ms, a whole `ask`: every turn, wait and retry.
  ask_timeout: { kind: int(1) },
};

export const DATASOURCE_KEYS: KeyTable = {
  url: { kind: str },
  url_env: { kind: envName },
};

export const DB_STATEMENT_KEYS: KeyTable = {
  source: { kind: datasourceRef, required: true },
  sql: { kind: str, required: true },
  // Extension: what a model is told when the statement is listed in an agent's `tools`.
  description: { kind: str },
};

/** The key table and entries of a declaration with a block of entries. */
export function entriesOf(decl: Decl): { table: KeyTable; entries: Entry[] } | undefined {
  switch (decl.kind) {
    case "Tool":
      return { table: TOOL_OPTIONS, entries: decl.options };
    case "Model":
      return { table: MODEL_KEYS, entries: decl.entries };
    case "Agent":
      return { table: AGENT_KEYS, entries: decl.entries };
    case "Datasource":
      return { table: DATASOURCE_KEYS, entries: decl.entries };
    case "Query":
    case "Command":
      return { table: DB_STATEMENT_KEYS, entries: decl.entries };
    default:
      return undefined;
  }
}

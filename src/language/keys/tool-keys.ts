/**
 * The options of a `tool` block (spec §4 "Tool options"; `description`, `mcp`, `mcp_tool`
 * are extensions): the one table the checker, the runtime's `ToolOptions`, completion and
 * the first-hour hints read. Cross-key rules (a write tool and cache, idempotency_key
 * naming a parameter, `timeout: 0`) have their own rule files.
 */
import { approvalSpec, bool, constObject, envName, fieldPath, int, oneOf, schemaRef, str } from "../value-kinds";
import { keyTable } from "./key-spec";

export const TOOL_KEYS = keyTable({
  side_effects: { kind: oneOf("none", "read", "write"), default: "none", field: "sideEffects", doc: 'Side-effect class: "none", "read" or "write"; tool_policy builds on it.' },
  cache: { kind: bool, default: false, doc: "Keep the result in-process for the same input (never for write tools)." },
  scope: { kind: str, doc: "Permission label; must be in the agent's tool_scopes." },
  credential: { kind: envName, doc: "Environment variable the tool needs: it never runs while the variable is unset." },
  // The name of the schema a thrown typed error is validated against.
  error: { kind: schemaRef, doc: "Typed error schema the handler's thrown error is validated against." },
  retries: { kind: int(0), default: 0, doc: "Extra attempts on retryable errors (a write tool must be idempotent)." },
  retry_backoff: { kind: oneOf("none", "fixed", "exponential"), default: "none", field: "retryBackoff", doc: 'Wait between attempts: "none", "fixed" or "exponential".' },
  retry_delay: { kind: int(0), default: 100, field: "retryDelay", doc: "ms, the base wait between attempts." },
  // Any integer: zero and below get the spec's exact timeout message (tool-consistency).
  timeout: { kind: int(), doc: "ms, this tool's timeout; overrides the agent's tool_timeout." },
  idempotent: { kind: bool, default: false, doc: "Run only once per idempotency_key." },
  // The path inside the validated input, without a leading `input.`.
  idempotency_key: { kind: fieldPath, field: "idempotencyKey", doc: "The input field naming a request (`request_id` or `input.request_id`); a path, never an expression." },
  idempotency_ttl_ms: { kind: int(1), default: 300_000, field: "idempotencyTtlMs", doc: "ms, how long an idempotency record lives." },
  description: { kind: str, doc: "What the model is told the tool does." },
  // Shown to people, never to the model: an MCP client lists the tool by it (luma mcp).
  title: { kind: str, doc: "A short human-readable name: an MCP client shows it (luma mcp's tools/list `title`)." },
  // Not sent up front: the model finds it through the synthetic `search_tools` (runtime/ask/tool-discovery.ts).
  lazy: { kind: bool, default: false, doc: "Not sent to the model up front: it finds the tool by calling search_tools." },
  // The MCP server (luma.config.json `mcp_servers`) whose tool is the handler, and that tool's name there.
  mcp: { kind: str, doc: "The luma.config.json mcp_servers entry whose tool is the handler." },
  mcp_tool: { kind: str, field: "mcpTool", doc: "That MCP tool's name on its server, when it is not the Luma tool's." },
  // "client": no host handler — the caller answers (journal `luma runs answer`, the terminal, MCP elicitation).
  handler: { kind: oneOf("client"), doc: '"client": no host handler; the caller answers each call with a value of the return type.' },
  // true, or the schema the approver's note must match (given to the handler as ctx.approval).
  approval: { kind: approvalSpec, default: false, doc: "true: every call waits for a person's approval; a schema name: the approver also supplies a value of it (ctx.approval)." },
  // What the model is told, and who may call the tool (docs/language/tools.md "Who sees a tool").
  audience: { kind: oneOf("both", "model", "code"), default: "both", doc: 'Who may call it: "model" (only a model, never code), "code" (only code, never offered to a model) or "both".' },
  instructions: { kind: str, doc: "Appended to the agent's system prompt whenever the tool is offered to the model." },
  max_result_chars: { kind: int(1), field: "maxResultChars", doc: "The most characters of the serialized result the model sees (cut with a marker); code keeps the whole value." },
  metadata: { kind: constObject, doc: "A constant object for hosts: MCP `_meta`, trace events, OTel attributes, generated types; never sent to the model." },
});

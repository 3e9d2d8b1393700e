/**
 * The shape of `luma.config.json` after validation and normalisation (spec §8, §10, §11).
 * Other stages code against these types; `load-config.ts` is the only producer.
 */

export interface ToolModuleEntry { path: string; version?: string; integrity?: string; dependencies?: string[]; dependency_root?: string }
export interface ToolModulePolicy { sandbox?: "none" | "strict"; allow_builtins?: string[]; allow_env?: boolean; allow_network?: boolean; max_memory_mb?: number; max_concurrency?: number }
export interface IdempotencyStoreConfig { backend: "memory" | "file" | "sqlite" | "postgres" | "redis"; path?: string; encryption?: "aes-256-gcm"; url?: string; url_env?: string }
/** `journal` (durable runs): the SQLite file of this machine, or a PostgreSQL database for worker pools. */
export interface JournalConfig { backend: "sqlite" | "postgres"; path?: string; url?: string; url_env?: string; table?: string; encryption?: "aes-256-gcm" }
export interface ContextFieldSource { env: string; parse?: "string" | "json" | "number" | "integer" | "boolean" }
/** An MCP server a `tool … { mcp: "name" }` reaches: started over stdio (`command`) or at a Streamable HTTP `url`. */
export interface McpServerConfig { command?: string; args?: string[]; env?: Record<string, string>; url?: string; headers_env?: Record<string, string> }
export interface LumaConfig { tool_modules: ToolModuleEntry[]; tool_module_policy?: ToolModulePolicy; idempotency_store?: IdempotencyStoreConfig; journal?: JournalConfig; tool_contexts: Record<string, Record<string, ContextFieldSource>>; mcp_servers?: Record<string, McpServerConfig>; replay?: string; max_agent_depth?: number }

/** What `loadConfig` returns. */
export interface LoadedConfig {
  config: LumaConfig;
  /** The directory holding the config file, else the program's directory (spec §10 "project directory"). */
  projectDir: string;
  /** Absolute path of the config file that was read; absent when defaults are used. */
  path?: string;
}

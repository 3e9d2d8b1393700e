/**
 * The shape of `luma.config.json` after validation and normalisation (spec §8, §10, §11).
 * Other stages code against these types; `load-config.ts` is the only producer.
 */

export interface ToolModuleEntry { path: string; version?: string; integrity?: string; dependencies?: string[]; dependency_root?: string }
/** A path `sandbox: "process"` shows the child: read-only, or writable with `write: true`. */
export type AllowedPath = string | { path: string; write?: boolean };
export interface ToolModulePolicy {
  sandbox?: "none" | "strict" | "process";
  allow_builtins?: string[];
  /** Every variable, none, or these names. */
  allow_env?: boolean | string[];
  allow_network?: boolean;
  /** `"process"` only: extra paths the child sees. */
  allow_paths?: AllowedPath[];
  /** `"process"` only: the child may start processes (inside its sandbox). */
  allow_spawn?: boolean;
  /** `"process"` only: how long after its timeout a handler that ignores its AbortSignal keeps its child. */
  kill_grace_ms?: number;
  max_memory_mb?: number;
  max_concurrency?: number;
}
export interface IdempotencyStoreConfig { backend: "memory" | "file" | "sqlite" | "postgres" | "redis"; path?: string; encryption?: "aes-256-gcm"; url?: string; url_env?: string }
/** `journal` (durable runs): the SQLite file of this machine, or a PostgreSQL database for worker pools. */
export interface JournalConfig { backend: "sqlite" | "postgres"; path?: string; url?: string; url_env?: string; table?: string; encryption?: "aes-256-gcm" }
export interface ContextFieldSource { env: string; parse?: "string" | "json" | "number" | "integer" | "boolean" }
/** An MCP server a `tool … { mcp: "name" }` reaches: started over stdio (`command`) or at a Streamable HTTP `url`. */
/** `mcp_servers.<name>.oauth`: a pre-registered client (authorization_code) or a machine client (client_credentials). */
export interface McpOAuthConfig { grant_type?: "authorization_code" | "client_credentials"; client_id?: string; client_secret_env?: string; private_key_env?: string; signing_algorithm?: string; scopes?: string[]; client_metadata_url?: string }
export interface McpServerConfig { command?: string; args?: string[]; env?: Record<string, string>; url?: string; headers_env?: Record<string, string>; oauth?: McpOAuthConfig; sampling?: McpSamplingConfig }
/** `mcp_servers.<name>.sampling`: the server's `sampling/createMessage` requests are answered by this program model, asked first ("ask", the default) or not ("allow"). */
export interface McpSamplingConfig { model: string; approval?: "ask" | "allow" }
/** `threads` (issue #26 §1): where `thread(id)` keeps conversations; sealed like the idempotency store. */
export interface ThreadsConfig { backend: "file" | "sqlite" | "postgres" | "redis"; path?: string; encryption?: "aes-256-gcm"; url?: string; url_env?: string }
/** `std` (docs/language/std-tools.md): where luma:std's tools may reach. */
export interface StdConfig {
  /** The directory file paths resolve under; relative to the config file (default: the program's directory). */
  files_root?: string;
  /** The hosts http_get / http_send may reach: "host" (any port) or "host:port"; none by default. */
  http_hosts?: string[];
  /** Per allowed host: header name → the environment variable holding its value. */
  http_headers_env?: Record<string, Record<string, string>>;
}
/** `mcp_serve` (docs/mcp.md "OAuth"): `oauth.issuer` signs the tokens `luma mcp --http` accepts; `audience` defaults to the served URL. */
export interface McpServeConfig {
  oauth?: { issuer: string; audience?: string };
}

export interface LumaConfig { tool_modules: ToolModuleEntry[]; tool_module_policy?: ToolModulePolicy; idempotency_store?: IdempotencyStoreConfig; threads?: ThreadsConfig; journal?: JournalConfig; tool_contexts: Record<string, Record<string, ContextFieldSource>>; mcp_servers?: Record<string, McpServerConfig>; replay?: string; /** `parallel for` without `limit`: at most this many bodies at once (absent: 8). */ parallel_limit?: number; /** How deep agents listed as tools may call each other (absent: 4). */ max_agent_depth?: number; std?: StdConfig; /** `luma mcp`'s serving settings. */ mcp_serve?: McpServeConfig }

/** What `loadConfig` returns. */
export interface LoadedConfig {
  config: LumaConfig;
  /** The directory holding the config file, else the program's directory (spec §10 "project directory"). */
  projectDir: string;
  /** Absolute path of the config file that was read; absent when defaults are used. */
  path?: string;
}

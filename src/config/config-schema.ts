/**
 * The table `luma.config.json` is checked against (spec §8 tool_contexts, §10 tool modules and
 * strict policy, §11 idempotency stores, MCP servers). Adding a key is one line here.
 */
import type { ObjectCheck, Rule } from "./shape-rules";
import { childPath } from "./shape-rules";

const text: Rule = { kind: "string" };
const envName: Rule = { kind: "string", pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, form: "an environment variable name" };
const textList: Rule = { kind: "list", of: text };

/** Node's `sha256-<base64>` subresource-integrity form: 32 bytes are 43 base64 chars + "=". */
export const INTEGRITY_PATTERN = /^sha256-[A-Za-z0-9+/]{43}=$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

const toolModuleEntry: Rule = {
  kind: "object",
  required: ["path"],
  fields: {
    path: text,
    version: { kind: "string", pattern: SEMVER, form: 'a semver version such as "1.0.0"' },
    integrity: { kind: "string", pattern: INTEGRITY_PATTERN, form: '"sha256-<base64>"' },
    dependencies: textList,
    dependency_root: text,
  },
};

const toolModulePolicy: Rule = {
  kind: "object",
  fields: {
    sandbox: { kind: "enum", values: ["none", "strict", "process"] },
    allow_builtins: textList,
    allow_env: { kind: "boolOrList", of: envName },
    allow_network: { kind: "bool" },
    allow_paths: { kind: "list", of: { kind: "stringOr", string: text, object: { kind: "object", required: ["path"], fields: { path: text, write: { kind: "bool" } } } } },
    allow_spawn: { kind: "bool" },
    kill_grace_ms: { kind: "int", min: 0 },
    max_memory_mb: { kind: "int", min: 16 },
    max_concurrency: { kind: "int", min: 1 },
  },
};

/** Which optional keys each idempotency backend reads; `oneOf` lists keys of which exactly one is needed. */
const STORE_BACKENDS: Record<string, { keys: readonly string[]; oneOf?: readonly string[] }> = {
  memory: { keys: [] },
  file: { keys: ["path", "encryption"] },
  sqlite: { keys: ["path", "encryption"] },
  postgres: { keys: ["url", "url_env", "encryption"], oneOf: ["url", "url_env"] },
  redis: { keys: ["url", "url_env", "encryption"], oneOf: ["url", "url_env"] },
};

const keysFitBackend = (backends: Record<string, { keys: readonly string[]; oneOf?: readonly string[] }>): ObjectCheck => (store, path) => {
  const backend = String(store.backend);
  const { keys, oneOf } = backends[backend];
  const problems = Object.keys(store)
    .filter((key) => key !== "backend" && !keys.includes(key))
    .map((key) => `'${childPath(path, key)}' does not apply to the ${backend} backend`);
  if (oneOf) {
    const given = oneOf.filter((key) => Object.hasOwn(store, key));
    const names = oneOf.map((key) => `'${childPath(path, key)}'`).join(" or ");
    if (given.length === 0) problems.push(`the ${backend} backend needs ${names}`);
    if (given.length > 1) problems.push(`the ${backend} backend takes only one of ${names}`);
  }
  return problems;
};

type Backends = Record<string, { keys: readonly string[]; oneOf?: readonly string[] }>;

/** A `{ "backend": …, … }` object (idempotency_store, journal): the backend's keys, with `extra` fields. */
const backendObject = (backends: Backends, extra: Record<string, Rule> = {}): Rule => ({
  kind: "object",
  required: ["backend"],
  check: keysFitBackend(backends),
  fields: {
    backend: { kind: "enum", values: Object.keys(backends) },
    path: text,
    encryption: { kind: "enum", values: ["aes-256-gcm"] },
    url: text,
    url_env: envName,
    ...extra,
  },
});

const idempotencyStore = backendObject(STORE_BACKENDS);

/** `threads` (issue #26 §1): the idempotency store's backends but memory (`thread()` is the in-memory one). */
const { memory: _memory, ...THREAD_BACKENDS } = STORE_BACKENDS;
const threads = backendObject(THREAD_BACKENDS);

/** Which optional keys each journal backend reads (durable runs). */
const JOURNAL_BACKENDS: Backends = {
  sqlite: { keys: ["path", "encryption"] },
  postgres: { keys: ["url", "url_env", "table", "encryption"], oneOf: ["url", "url_env"] },
};

const journal = backendObject(JOURNAL_BACKENDS, { table: { kind: "string", pattern: /^[a-z_][a-z0-9_]{0,40}$/, form: "a lower-case SQL table name" } });

const contextField: Rule = {
  kind: "object",
  required: ["env"],
  fields: {
    env: envName,
    parse: { kind: "enum", values: ["string", "json", "number", "integer", "boolean"] },
  },
};

/** An MCP server (src/mcp/): a command Luma starts (stdio) or a URL it connects to (Streamable HTTP). */
const MCP_TRANSPORT_KEYS = { stdio: ["command", "args", "env"], http: ["url", "headers_env"] } as const;

const mcpServerKeysFitTransport: ObjectCheck = (server, path) => {
  const stdio = MCP_TRANSPORT_KEYS.stdio.filter((key) => Object.hasOwn(server, key));
  const http = MCP_TRANSPORT_KEYS.http.filter((key) => Object.hasOwn(server, key));
  if (stdio.length > 0 && http.length > 0) {
    return [`'${childPath(path, stdio[0])}' and '${childPath(path, http[0])}' cannot be used together (a server is started with "command" or reached at "url")`];
  }
  if (!Object.hasOwn(server, "command") && !Object.hasOwn(server, "url")) return [`'${path}' needs "command" or "url"`];
  return [];
};

const mcpServer: Rule = {
  kind: "object",
  check: mcpServerKeysFitTransport,
  fields: {
    command: text,
    args: textList,
    env: { kind: "map", of: text },
    url: { kind: "string", pattern: /^https?:\/\/\S+$/, form: 'an "http://" or "https://" URL' },
    /** Header name → the environment variable holding its value (never the value itself). */
    headers_env: { kind: "map", of: envName },
  },
};

/** `luma mcp --http`'s OAuth (src/mcp/oauth-access.ts): the issuer whose JWTs it accepts, for which audience. */
const mcpServe: Rule = {
  kind: "object",
  fields: {
    oauth: {
      kind: "object",
      required: ["issuer"],
      fields: {
        issuer: { kind: "string", pattern: /^https?:\/\/\S+$/, form: 'an "http://" or "https://" URL' },
        audience: text,
      },
    },
  },
};

export const CONFIG_SCHEMA: Rule = {
  kind: "object",
  fields: {
    tool_modules: { kind: "list", of: { kind: "stringOr", string: text, object: toolModuleEntry } },
    tool_module_policy: toolModulePolicy,
    idempotency_store: idempotencyStore,
    threads,
    journal,
    tool_contexts: { kind: "map", of: { kind: "map", of: contextField } },
    mcp_servers: { kind: "map", of: mcpServer },
    /** How `luma mcp` serves: `oauth` for `--http` (docs/mcp.md "OAuth"). */
    mcp_serve: mcpServe,
    /** A cassette (relative to the config's directory) that answers every `ask`, offline; `--replay` overrides. */
    replay: text,
    /** How many bodies of a `parallel for` written without `limit` run at once (default 8). */
    parallel_limit: { kind: "int", min: 1 },
    /** How deep agents listed as tools may call each other (issue #27 §1); the outermost agent call is depth 1. */
    max_agent_depth: { kind: "int", min: 1 },
  },
};

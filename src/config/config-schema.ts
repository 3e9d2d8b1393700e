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
const MCP_TRANSPORT_KEYS = { stdio: ["command", "args", "env"], http: ["url", "headers_env", "oauth"] } as const;

/** The JWS algorithms a private_key_jwt client may sign with (asymmetric: the key is a PEM private key). */
export const MCP_OAUTH_SIGNING_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"] as const;

/**
 * `oauth`'s keys fit its grant: a machine client (client_credentials) needs its `client_id`
 * and exactly one way to prove it (a secret or a signing key); a key needs its algorithm;
 * a signing key has no place in the authorization code flow (a person authorizes there).
 */
const mcpOAuthKeysFit: ObjectCheck = (oauth, path) => {
  const has = (key: string) => Object.hasOwn(oauth, key);
  const problems: string[] = [];
  const machine = oauth.grant_type === "client_credentials";
  if (machine && !has("client_id")) problems.push(`'${childPath(path, "client_id")}' is needed with "grant_type": "client_credentials"`);
  if (machine && has("client_secret_env") === has("private_key_env")) {
    problems.push(`'${path}' needs exactly one of 'client_secret_env' or 'private_key_env' with "grant_type": "client_credentials"`);
  }
  if (!machine && has("private_key_env")) problems.push(`'${childPath(path, "private_key_env")}' is for "grant_type": "client_credentials" only`);
  if (has("private_key_env") !== has("signing_algorithm")) {
    problems.push(`'${childPath(path, "private_key_env")}' and '${childPath(path, "signing_algorithm")}' go together`);
  }
  if (!machine && has("client_secret_env") && !has("client_id")) problems.push(`'${childPath(path, "client_secret_env")}' needs 'client_id' (a pre-registered client)`);
  return problems;
};

const mcpOAuth: Rule = {
  kind: "object",
  check: mcpOAuthKeysFit,
  fields: {
    grant_type: { kind: "enum", values: ["authorization_code", "client_credentials"] },
    client_id: text,
    client_secret_env: envName,
    private_key_env: envName,
    signing_algorithm: { kind: "enum", values: MCP_OAUTH_SIGNING_ALGORITHMS },
    scopes: textList,
    /** A Client ID Metadata Document: its HTTPS URL is the client_id where the authorization server supports them. */
    client_metadata_url: { kind: "string", pattern: /^https:\/\/[^/\s]+\/\S+$/, form: 'an "https://" URL with a path' },
  },
};

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
    /** OAuth 2.1 for a server that asks for it (src/mcp/oauth/); absent: the authorization code flow on a 401. */
    oauth: mcpOAuth,
    /** The server's sampling requests, answered by a model of the program (src/mcp/answer-sampling.ts); absent: refused. */
    sampling: { kind: "object", required: ["model"], fields: { model: text, approval: { kind: "enum", values: ["ask", "allow"] } } },
  },
};

/** An `http_hosts` entry: a host name or IP literal, with a port or without. */
const HTTP_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const httpHost: Rule = { kind: "string", pattern: HTTP_HOST, form: 'a host name, optionally with a port ("api.example.com", "127.0.0.1:8080")' };
/** A header name (RFC 9110 token). */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `std` (docs/language/std-tools.md): the confinement of luma:std's tools. */
const std: Rule = {
  kind: "object",
  fields: {
    files_root: text,
    http_hosts: { kind: "list", of: httpHost },
    /** Host → header name → the environment variable holding the value (never the value itself). */
    http_headers_env: { kind: "map", of: { kind: "map", of: envName } },
  },
  check: (value, path) => {
    const headers = value.http_headers_env;
    if (typeof headers !== "object" || headers === null) return [];
    return Object.values(headers as Record<string, unknown>).flatMap((byName, i) =>
      typeof byName === "object" && byName !== null
        ? Object.keys(byName).filter((name) => !headerName.test(name)).map((name) => `'${childPath(childPath(path, "http_headers_env"), Object.keys(headers)[i]!)}' has '${name}', which is not a header name`)
        : [],
    );
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
    std,
  },
};

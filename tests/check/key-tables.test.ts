/**
 * Issue #18 §3: one table per declaration kind for its keys (`src/language/keys/`). For each
 * kind: the keys are the ones the spec and docs/language document (an explicit list here, and
 * the spec's own key tables parsed); a block setting every key to a non-default value is
 * accepted by the real `luma check` and read by the runtime's real readers into the
 * values written here (not re-read from the table); a block setting none reads the
 * spec's defaults, and the defaults the reference pages and the spec state are the tables'; an
 * unknown key is refused. Then: no stage after the checker reads a block's entries by a
 * key literal of its own, and the editor's completion and hover show each key's doc line.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { KEY_BLOCKS, type KeyTable } from "../../src/language/key-blocks";
import { check } from "../../src/check/index";
import { AGENT_KEYS } from "../../src/language/keys/agent-keys";
import { DATASOURCE_KEYS } from "../../src/language/keys/datasource-keys";
import { MODEL_KEYS } from "../../src/language/keys/model-keys";
import { STATEMENT_KEYS } from "../../src/language/keys/statement-keys";
import { TOOL_KEYS } from "../../src/language/keys/tool-keys";
import { askSettingsOf } from "../../src/runtime/tools/steps/agent-ask-settings";
import { readStatementEntries, statementDescription } from "../../src/runtime/datasources/statement-entries";
import { resolveModel } from "../../src/runtime/providers/resolve-model";
import { readAgentPolicy, TOP_LEVEL_POLICY } from "../../src/runtime/tools/steps/agent-policy";
import { readToolOptions } from "../../src/runtime/tools/steps/tool-options";
import type { AgentDecl, Decl, ModelDecl, Program, QueryDecl, ToolDecl } from "../../src/syntax/ast";
import { parse } from "../../src/syntax/parse";
import { REPO, runLuma } from "../support/luma-binary";
import { positionOf, startLsp, type LspSession } from "../lsp/lsp-client";

/** Every key of every kind, set to a value other than its default. */
const EVERY_KEY = `schema Out { ok: bool }
schema Oops { code: string }
schema Row { n: int }

tool fetch_doc(request_id: string) -> Out {
  side_effects: "read"
  cache: true
  scope: "docs:read"
  credential: "KT_DOCS_TOKEN"
  error: Oops
  retries: 2
  retry_backoff: "exponential"
  retry_delay: 250
  timeout: 1500
  idempotent: true
  idempotency_key: input.request_id
  idempotency_ttl_ms: 60000
  description: "Fetches one document."
  title: "Fetch a document"
  lazy: true
  mcp: "docs"
  mcp_tool: "fetch"
  audience: "model"
  instructions: "Fetch a document before quoting it."
  max_result_chars: 2000
  metadata: { owner: "docs-team", tier: 2, tags: ["read"], pii: false, extra: { note: null } }
  approval: Oops
}

tool confirm_doc(request_id: string) -> Out {
  handler: "client"
}

model Fast {
  provider: "openai"
  name: "gpt-5.4-mini"
  temperature: 0.3
  max_tokens: 512
  base_url: "http://127.0.0.1:9/v1/"
  api_key_env: "KT_OPENAI_KEY"
  timeout: 4000
  api: "responses"
  reasoning_model: true
  price_in_per_mtok: 0.15
  price_out_per_mtok: 0.6
}

model Cloud {
  provider: "azure"
  name: "gpt-4o"
  deployment: "prod"
  api_version: "2024-10-21"
  top_p: 0.8
  seed: 3
  stop: ["END"]
  reasoning_effort: "low"
  provider_options: { service_tier: "flex", metadata: { team: "kt" } }
}

agent Worker {
  model: Fast
  system: "Be brief."
  tools: [fetch_doc, top_rows]
  handoffs: [Helper]
  max_handoffs: 2
  tool_rate_limit: 0
  tool_concurrency: 3
  tool_failure_limit: 2
  tool_policy: "deny_write"
  tool_scopes: ["docs:read"]
  tool_contexts: []
  tool_timeout: 1000
  tool_timeout_max: 2000
  retries: 1
  on_denied: "tell_model"
  budget_tokens: 5000
  budget_usd: 0.5
  ask_timeout: 90000
  history_limit: 20
}

agent Helper { model: Fast }

datasource Main { url: "sqlite::memory:" }
datasource FromEnv { url_env: "KT_DB_URL" }

query top_rows(limit: int) -> Row[] {
  source: Main
  sql: "SELECT $1 AS n"
  description: "Rows, as many as asked."
}
`;

/** Every kind with no key set (only the required ones). */
const NO_KEY = `schema Out { ok: bool }
schema Row { n: int }
tool plain(x: string) -> Out {}
model Bare {
  provider: "openai"
  name: "gpt-5.4-mini"
}
agent Idle {}
datasource Empty {}
command touch(n: int) -> Row {
  source: Empty
  sql: "SELECT $1 AS n"
}
`;

const dir = mkdtempSync(join(tmpdir(), "luma-key-tables-"));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** Parsed and checked clean, as the runtime gets a program. */
function checkedProgram(text: string): Program {
  const { program, diagnostics } = parse(text, "keys.luma");
  expect(diagnostics).toEqual([]);
  expect(check(program!).filter((d) => d.severity === "error")).toEqual([]);
  return program!;
}
const declNamed = <D extends Decl>(program: Program, name: string) => program.decls.find((d) => d.name === name) as D;

const every = checkedProgram(EVERY_KEY);
const none = checkedProgram(NO_KEY);

/** Which keys a block of the program sets, over every declaration of the table's kinds. */
const keysSet = (program: Program, table: object) =>
  new Set(
    program.decls.flatMap((d) => {
      const block = KEY_BLOCKS.find((b) => b.kinds.includes(d.kind));
      return block?.table === table ? (d.kind === "Tool" ? d.options : "entries" in d ? d.entries : []).map((e) => e.key) : [];
    }),
  );

const unknownKeyRefused = (program: string, message: string) => {
  const r = runLuma(["check", write(`unknown-${Math.random().toString(36).slice(2)}.luma`, program)]);
  expect(r.stdout + r.stderr).toContain(message);
  expect(r.exitCode).toBe(2);
};

describe("issue #18: every key of every table is accepted by the real `luma check`", () => {
  test("a program setting every key of every kind to a non-default value checks clean (exit 0)", () => {
    const r = runLuma(["check", write("every-key.luma", EVERY_KEY)]);
    expect(r.stdout + r.stderr).toContain(": ok");
    expect(r.exitCode).toBe(0);
  });

  test("the program sets every key of every table (so the rows below cover every key)", () => {
    for (const b of KEY_BLOCKS) expect([...keysSet(every, b.table)].sort()).toEqual(Object.keys(b.table).sort());
  });
});

describe("§4 tool options: one table for the checker and ToolOptions", () => {
  test("the keys are the spec's §4 table, less `needs` (a declaration), plus description, title (luma mcp), lazy (lazy tools), mcp, mcp_tool (docs/mcp.md), and issue #25's audience, instructions, max_result_chars, metadata", () => {
    expect(Object.keys(TOOL_KEYS)).toEqual([
      "side_effects", "cache", "scope", "credential", "error", "retries", "retry_backoff", "retry_delay",
      "timeout", "idempotent", "idempotency_key", "idempotency_ttl_ms", "description", "title", "lazy", "mcp", "mcp_tool",
      "handler", "approval", "audience", "instructions", "max_result_chars", "metadata",
    ]);
  });

  test("every option set is read by the runtime (readToolOptions) into its runtime value", () => {
    expect(readToolOptions(declNamed<ToolDecl>(every, "fetch_doc"))).toEqual({
      sideEffects: "read",
      cache: true,
      scope: "docs:read",
      credential: "KT_DOCS_TOKEN",
      error: "Oops",
      retries: 2,
      retryBackoff: "exponential",
      retryDelay: 250,
      timeout: 1500,
      idempotent: true,
      // `input.request_id` and `request_id` name the same field.
      idempotencyKey: ["request_id"],
      idempotencyTtlMs: 60000,
      description: "Fetches one document.",
      title: "Fetch a document",
      lazy: true,
      mcp: "docs",
      mcpTool: "fetch",
      handler: undefined,
      approval: "Oops",
      audience: "model",
      instructions: "Fetch a document before quoting it.",
      maxResultChars: 2000,
      metadata: { owner: "docs-team", tier: 2, tags: ["read"], pii: false, extra: { note: null } },
    });
    // A client tool's keys exclude a host handler's (E0278): \`handler\` is set on a tool of its own.
    expect(readToolOptions(declNamed<ToolDecl>(every, "confirm_doc")).handler).toBe("client");
  });

  test("a tool that sets none gets the spec's defaults: none, false, 0, none, 100 ms, false, 300000 ms", () => {
    const o = readToolOptions(declNamed<ToolDecl>(none, "plain"));
    expect(o).toEqual({
      sideEffects: "none", cache: false, scope: undefined, credential: undefined, error: undefined, retries: 0,
      retryBackoff: "none", retryDelay: 100, timeout: undefined, idempotent: false, idempotencyKey: undefined,
      idempotencyTtlMs: 300000, description: undefined, title: undefined, lazy: false, mcp: undefined, mcpTool: undefined,
      handler: undefined, approval: false,
      audience: "both", instructions: undefined, maxResultChars: undefined, metadata: undefined,
    });
    // Every field is present, so every tool's options share one object shape.
    expect(Object.keys(o)).toHaveLength(Object.keys(TOOL_KEYS).length);
  });

  test("an unknown tool option is refused: Unknown key 'retry' in tool 'x'.", () => {
    unknownKeyRefused(`schema Out { ok: bool }\ntool x(a: string) -> Out {\n  retry: 2\n}\n`, "Unknown key 'retry' in tool 'x'.");
  });
});

describe("§5 model keys: one table for the checker and model resolution", () => {
  test("the keys are the spec's §5 block, plus the sampling and reasoning options (issue #26 §5), deployment/api_version (Azure), timeout, api, reasoning_model, the prices (docs/language/models.md)", () => {
    expect(Object.keys(MODEL_KEYS)).toEqual([
      "provider", "name", "temperature", "max_tokens", "top_p", "seed", "stop", "reasoning_effort", "provider_options", "base_url", "api_key_env", "deployment", "api_version",
      "timeout", "api", "reasoning_model", "price_in_per_mtok", "price_out_per_mtok",
    ]);
  });

  test("every key set is read by resolveModel into the resolved model", () => {
    const fast = resolveModel(declNamed<ModelDecl>(every, "Fast"), { KT_OPENAI_KEY: "sk-test" });
    expect(fast).toMatchObject({
      provider: "openai", name: "gpt-5.4-mini", temperature: 0.3, maxTokens: 512, baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "sk-test", timeoutMs: 4000, api: "responses", price: { inPerMtok: 0.15, outPerMtok: 0.6 },
    });
    const cloud = resolveModel(declNamed<ModelDecl>(every, "Cloud"), { AZURE_OPENAI_API_KEY: "k", AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com" });
    expect(cloud).toMatchObject({ provider: "azure", name: "prod", modelId: "gpt-4o", apiVersion: "2024-10-21", baseUrl: "https://res.openai.azure.com/openai" });
    expect(cloud).toMatchObject({ topP: 0.8, seed: 3, stop: ["END"], reasoningEffort: "low", providerOptions: { service_tier: "flex", metadata: { team: "kt" } } });
  });

  test("a model that sets only the required keys: Chat Completions, no temperature, no cap, no price", () => {
    const m = resolveModel(declNamed<ModelDecl>(none, "Bare"), { OPENAI_API_KEY: "k" });
    expect(m).toMatchObject({ baseUrl: "https://api.openai.com/v1", api: undefined, temperature: undefined, maxTokens: undefined, timeoutMs: undefined, price: undefined });
  });

  test("an unknown model key is refused, and a missing required one: Missing key 'name' in model 'M'.", () => {
    unknownKeyRefused(`model M {\n  provider: "openai"\n  name: "x"\n  temprature: 1\n}\n`, "Unknown key 'temprature' in model 'M'.");
    unknownKeyRefused(`model M {\n  provider: "openai"\n}\n`, "Missing key 'name' in model 'M'.");
  });
});

describe("§6 agent keys: one table for the checker, the ask settings and the tool policy", () => {
  test("the keys are the spec's §6 table plus ask_timeout and history_limit (docs/language/agents.md) and issue #27's handoffs, max_handoffs, on_denied, budget_tokens, budget_usd", () => {
    expect(Object.keys(AGENT_KEYS)).toEqual([
      "model", "system", "tools", "handoffs", "max_handoffs", "tool_rate_limit", "tool_concurrency", "tool_failure_limit", "tool_policy", "on_denied",
      "tool_scopes", "tool_contexts", "tool_timeout", "tool_timeout_max", "retries", "budget_tokens", "budget_usd", "ask_timeout", "history_limit",
    ]);
  });

  test("every key set is read by the runtime: the ask settings and the tool pipeline's policy", () => {
    const agent = declNamed<AgentDecl>(every, "Worker");
    expect(askSettingsOf(agent)).toMatchObject({
      model: "Fast", system: "Be brief.", tools: ["fetch_doc", "top_rows"], toolRateLimit: 0, toolConcurrency: 3, retries: 1, askTimeout: 90000,
      onDenied: "tell_model", budgetTokens: 5000, budgetUsd: 0.5,
    });
    const policy = readAgentPolicy(agent);
    expect(policy).toMatchObject({ name: "Worker", toolPolicy: "deny_write", toolTimeout: 1000, toolTimeoutMax: 2000, failureLimit: 2 });
    expect([...policy.toolScopes!]).toEqual(["docs:read"]);
    // `[]` = no context at all, unlike not given (every context).
    expect(policy.toolContexts?.size).toBe(0);
  });

  test("an agent that sets none gets §6's defaults (5 calls, 1 at a time, allow, 30000 ms, 0 retries, 600000 ms), like top-level calls", () => {
    const idle = readAgentPolicy(declNamed<AgentDecl>(none, "Idle"));
    const defaults = {
      model: undefined, system: undefined, tools: [], toolRateLimit: 5, toolConcurrency: 1, failureLimit: undefined, toolPolicy: "allow" as const,
      toolScopes: undefined, toolContexts: undefined, toolTimeout: 30000, toolTimeoutMax: undefined, retries: 0, askTimeout: 600000, historyLimit: undefined, onDenied: "fail" as const, budgetTokens: undefined, budgetUsd: undefined, handoffs: [], maxHandoffs: 3,
    };
    expect(idle).toEqual({ name: "Idle", ...defaults });
    expect(TOP_LEVEL_POLICY).toEqual({ name: undefined, ...defaults });
  });

  test("an unknown agent key is refused, with the block it belongs to: `temperature` is a model key", () => {
    unknownKeyRefused(`agent A {\n  temperature: 1\n}\n`, "Unknown key 'temperature' in agent 'A'.");
    unknownKeyRefused(`agent A {\n  temperature: 1\n}\n`, "`temperature` is a model key; it does not apply here");
  });
});

describe("§12 datasource, query and command keys: one table each for the checker and the runtime", () => {
  test("the keys: url and url_env (extension), source, sql and description (extension)", () => {
    expect(Object.keys(DATASOURCE_KEYS)).toEqual(["url", "url_env"]);
    expect(Object.keys(STATEMENT_KEYS)).toEqual(["source", "sql", "description"]);
  });

  test("url and url_env are read by the real bridge resolution: both datasources answer through dist/luma", () => {
    const file = write("datasources.luma", `schema Row { n: int }
datasource FromEnv { url_env: "KT_DB_URL" }
datasource Main { url: "sqlite::memory:" }
query twice(n: int) -> Row {
  source: FromEnv
  sql: "SELECT $1 * 2 AS n"
}
query thrice(n: int) -> Row {
  source: Main
  sql: "SELECT $1 * 3 AS n"
}
a: Row = query twice({ n: 21 })
b: Row = query thrice({ n: 5 })
print(a.n, b.n)
`);
    const ok = runLuma([file], { env: { KT_DB_URL: "sqlite::memory:" } });
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toBe("42 15\n");
    expect(ok.exitCode).toBe(0);
    const unset = runLuma([file]);
    expect(unset.stderr).toContain("datasource 'FromEnv': environment variable KT_DB_URL is not set.");
    expect(unset.exitCode).toBe(2);
  });

  test("source, sql and description are read into the statement; with no description the model is told what it touches", () => {
    const q = declNamed<QueryDecl>(every, "top_rows");
    const entries = readStatementEntries(q);
    expect(entries).toEqual({ source: "Main", sql: "SELECT $1 AS n", description: "Rows, as many as asked." });
    expect(statementDescription(q, entries)).toBe("Rows, as many as asked.");
    const c = declNamed<QueryDecl>(none, "touch");
    expect(statementDescription(c, readStatementEntries(c))).toBe("Writes to the datasource 'Empty'.");
  });

  test("unknown keys are refused in a datasource and a query", () => {
    unknownKeyRefused(`datasource D {\n  uri: "sqlite::memory:"\n}\n`, "Unknown key 'uri' in datasource 'D'.");
    unknownKeyRefused(
      `schema Row { n: int }\ndatasource D {}\nquery q() -> Row[] {\n  source: D\n  sql: "SELECT 1 AS n"\n  timeout: 5\n}\n`,
      "Unknown key 'timeout' in query 'q'.",
    );
  });
});

const sectionOf = (doc: string, heading: string) => {
  const start = doc.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf("\n#", start + heading.length);
  return doc.slice(start, end === -1 ? undefined : end);
};

/**
 * A documented default as a value: `"none"`, `false`, `[]`, `300000`, `600000 (10 min)`;
 * "—", "none", "not given": no default. Undefined (the row is skipped) when it is prose.
 */
function documentedDefault(cell: string): { value: unknown } | undefined {
  const c = cell.replace(/`/g, "").trim();
  if (c === "—" || c === "none" || c === "not given") return { value: undefined };
  const m = /^("[^"]*"|-?\d+|true|false|\[\])(\s*\(.*\))?$/.exec(c);
  return m ? { value: JSON.parse(m[1]) } : undefined;
}
/** key → documented default, from a Markdown table whose first column names the key. */
function documentedDefaults(text: string, column: number): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const line of text.split("\n")) {
    const cells = line.split("|").slice(1, -1);
    // A row for options used together (`idempotent: true` + `idempotency_key: path`) is not one key's.
    const key = cells[0]?.includes(" + ") ? undefined : /^\s*`([a-z_]+)[`:]/.exec(cells[0] ?? "")?.[1];
    const d = key && cells[column] !== undefined ? documentedDefault(cells[column]) : undefined;
    if (key && d) out.set(key, d.value);
  }
  return out;
}
const tableDefaults = (table: KeyTable, keys: Iterable<string>) => Object.fromEntries([...keys].map((k) => [k, table[k]?.default]));

describe("the defaults the reference pages state are the tables' defaults", () => {
  const page = (name: string) => readFileSync(join(REPO, "docs", "language", name), "utf8");

  test("docs/language/tools.md, Tool options: every tool option's default", () => {
    const docs = documentedDefaults(sectionOf(page("tools.md"), "## Tool options"), 2);
    expect(docs.size).toBeGreaterThanOrEqual(8);
    expect(tableDefaults(TOOL_KEYS, docs.keys())).toEqual(Object.fromEntries(docs));
  });

  test("docs/language/agents.md, Keys: every agent key's default", () => {
    const docs = documentedDefaults(sectionOf(page("agents.md"), "## Keys"), 1);
    expect(docs.size).toBeGreaterThanOrEqual(5);
    expect(tableDefaults(AGENT_KEYS, docs.keys())).toEqual(Object.fromEntries(docs));
  });
});

describe("no stage after the checker reads a block by key literals of its own", () => {
  const SRC = join(REPO, "src");
  const files = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith(".ts") ? [join(d, e.name)] : []));
  /** The checker, the parser and the language layer own the blocks; every other stage reads them through `language/keys/`. */
  const later = files(SRC).filter((f) => !/^(check|syntax|language)\//.test(relative(SRC, f)));
  const code = (f: string) => readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");

  test("no entry's key is compared with a string (`o.key === \"description\"`): readKeys / entryOf name keys of a table", () => {
    const offenders = later.filter((f) => /\.key\s*(===|!==|==|!=)\s*["'`]/.test(code(f))).map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });

  test("no reader table of keys: no object maps two keys of one table to functions (`retry_delay: (v, o) => …`)", () => {
    const offenders: string[] = [];
    for (const f of later) {
      const text = code(f);
      for (const b of KEY_BLOCKS) {
        const readers = Object.keys(b.table).filter((k) => new RegExp(`^\\s*["']?${k}["']?\\s*:\\s*(\\(|[A-Za-z_$][\\w$.]*\\()`, "m").test(text));
        if (readers.length >= 2) offenders.push(`${relative(SRC, f)}: ${readers.join(", ")}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  test("no later stage reads a ConfigValue itself (but the LSP's index and the formatter, which walk every AST node)", () => {
    const offenders = later.filter((f) => /\bConfigValue\b/.test(code(f))).map((f) => relative(SRC, f));
    expect(offenders.sort()).toEqual(["format/print-expressions.ts", "lsp/document-index.ts"]);
  });
});

describe("the editor shows each key's doc line from the table (luma lsp)", () => {
  let lsp: LspSession;
  const uri = "file:///work/keys.luma";
  beforeAll(async () => {
    lsp = await startLsp();
    await lsp.open(uri, EVERY_KEY);
  });
  afterAll(async () => {
    if (lsp) await lsp.close().catch(() => {});
  });

  test("hover on a key: its doc line and default", async () => {
    const h: any = await lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri }, position: positionOf(EVERY_KEY, "retry_delay: 250", 0, 2) });
    expect(h.contents.value).toBe("`retry_delay` (default 100): ms, the base wait between attempts.");
  }, 60_000);

  test("completion in a model block: every model key, each with its doc line", async () => {
    const text = EVERY_KEY.replace("  temperature: 0.3\n", "  te\n");
    const u = "file:///work/keys-complete.luma";
    await lsp.open(u, text);
    const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri: u }, position: positionOf(text, "  te\n", 0, 4) });
    expect(r.items.map((i: any) => i.label)).toEqual(Object.keys(MODEL_KEYS));
    const provider = r.items.find((i: any) => i.label === "provider");
    expect(provider.documentation).toBe('`provider` (required): The provider family: "openai", "openai-compatible", "azure", "anthropic", "gemini" or "mcp".');
  }, 60_000);
});

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { startupFailure } from "../registry/startup-error-helpers";

const FIXTURES = join(import.meta.dir, "fixtures");
const tempDir = () => mkdtempSync(join(tmpdir(), "luma-config-"));

/** A temp program dir holding `luma.config.json` with `content`. */
function projectWith(content: unknown): string {
  const dir = tempDir();
  writeFileSync(join(dir, "luma.config.json"), typeof content === "string" ? content : JSON.stringify(content));
  return dir;
}

describe("§10 luma.config.json is looked up in the program's directory (--config PATH overrides)", () => {
  test("no file → the defaults, project directory = the program's directory", async () => {
    const dir = tempDir();
    expect(await loadConfig({ programDir: dir })).toEqual({ config: { tool_modules: [], tool_contexts: {} }, projectDir: dir });
  });

  test("the file beside the program is read; the project directory is its directory", async () => {
    const loaded = await loadConfig({ programDir: join(FIXTURES, "project") });
    expect(loaded.path).toBe(join(FIXTURES, "project/luma.config.json"));
    expect(loaded.projectDir).toBe(join(FIXTURES, "project"));
    expect(loaded.config.tool_contexts.db.port).toEqual({ env: "DB_PORT", parse: "integer" });
    expect(loaded.config.idempotency_store).toEqual({ backend: "file", path: ".luma-idempotency.json", encryption: "aes-256-gcm" });
  });

  test("--config PATH (relative to the cwd) overrides the program's own config", async () => {
    const loaded = await loadConfig({ configPath: "explicit/custom.json", programDir: join(FIXTURES, "broken"), cwd: FIXTURES });
    expect(loaded.path).toBe(join(FIXTURES, "explicit/custom.json"));
    expect(loaded.projectDir).toBe(join(FIXTURES, "explicit"));
    expect(loaded.config.tool_modules).toEqual([{ path: "./other-tools.cjs" }]);
  });

  test("a missing explicit --config path is an error", async () => {
    const error = await startupFailure(() => loadConfig({ configPath: "nope/luma.config.json", programDir: FIXTURES, cwd: FIXTURES }));
    expect(error.message).toBe("Config file not found: nope/luma.config.json");
  });
});

describe("§10 tool_modules: the short form and the long form", () => {
  test('the short form "tool_modules": ["./tools.ts"] is normalised to entries; the long form keeps its metadata', async () => {
    const { config } = await loadConfig({ programDir: join(FIXTURES, "project") });
    expect(config.tool_modules).toEqual([
      { path: "./tools.ts" },
      {
        path: "./db-tools.mjs",
        version: "1.0.0",
        integrity: "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
        dependencies: ["node-fetch"],
        dependency_root: "./vendor",
      },
    ]);
  });
});

describe("§10 unknown config keys and wrong value types are startup errors that name the key", () => {
  test("every problem of the file is reported at once, one per line, each naming the file and key path", async () => {
    const error = await startupFailure(() => loadConfig({ configPath: "many-errors.json", programDir: FIXTURES, cwd: FIXTURES }));
    expect(error.message.split("\n")).toEqual([
      "many-errors.json: unknown key 'tool_modules[1].pth' (did you mean 'path'?)",
      `many-errors.json: 'tool_modules[1].version' must be a semver version such as "1.0.0" (got 1)`,
      "many-errors.json: 'tool_modules[1].path' is required",
      `many-errors.json: 'tool_modules[2].integrity' must be "sha256-<base64>" (got "sha256-abc")`,
      `many-errors.json: 'tool_modules[2].dependencies' must be a list (got "node-fetch")`,
      "many-errors.json: 'tool_modules[3]' must be a string or an object (got 42)",
      `many-errors.json: 'tool_module_policy.sandbox' must be one of "none", "strict", "process" (got "loose")`,
      `many-errors.json: 'tool_module_policy.max_concurrency' must be an integer >= 1 (got "2")`,
      "many-errors.json: 'tool_module_policy.max_memory_mb' must be an integer >= 16 (got 8)",
      `many-errors.json: 'tool_module_policy.allow_env' must be true, false or a list (got "no")`,
      `many-errors.json: 'idempotency_store.backend' must be one of "memory", "file", "sqlite", "postgres", "redis" (got "mongo")`,
      `many-errors.json: 'tool_contexts.db.port.parse' must be one of "string", "json", "number", "integer", "boolean" (got "int")`,
      "many-errors.json: unknown key 'tool_contexts.db.user.variable'",
      "many-errors.json: 'tool_contexts.db.user.env' is required",
      "many-errors.json: unknown key 'tool_modul' (did you mean 'tool_modules'?)",
    ]);
    expect(error.catalogCode).toBe("E0401");
  });

  test("the file is named luma.config.json when it was found beside the program", async () => {
    const dir = projectWith({ tool_modules: [{ pth: "./tools.ts", path: "./tools.ts" }] });
    const error = await startupFailure(() => loadConfig({ programDir: dir }));
    expect(error.message).toBe("luma.config.json: unknown key 'tool_modules[0].pth' (did you mean 'path'?)");
  });

  test("a config that is not an object", async () => {
    const error = await startupFailure(() => loadConfig({ programDir: projectWith("[]") }));
    expect(error.message).toBe("luma.config.json: the configuration must be an object (got a list)");
  });

  test("invalid JSON is an error with line:col", async () => {
    const error = await startupFailure(() => loadConfig({ programDir: join(FIXTURES, "broken") }));
    expect(error.message).toBe("luma.config.json:1:34: invalid JSON: expected a property name in double quotes");
  });

  test("invalid JSON: trailing comma and unterminated string", async () => {
    const trailing = await startupFailure(() => loadConfig({ programDir: projectWith('{\n  "tool_modules": [\n    "a",\n  ]\n}') }));
    expect(trailing.message).toBe("luma.config.json:4:3: invalid JSON: trailing comma before ']'");
    const unterminated = await startupFailure(() => loadConfig({ programDir: projectWith('{ "tool_modules": ["a') }));
    expect(unterminated.message).toBe("luma.config.json:1:20: invalid JSON: unterminated string");
  });

  test("dependency_root cannot leave the project", async () => {
    const dir = projectWith({ tool_modules: [{ path: "./t.ts", dependency_root: "../elsewhere" }] });
    const error = await startupFailure(() => loadConfig({ programDir: dir }));
    expect(error.message).toBe(`luma.config.json: 'tool_modules[0].dependency_root' must stay inside the project directory (got "../elsewhere")`);
  });

  test("dependency_root may be a directory of the project whose name starts with '..' (regression)", async () => {
    const dir = projectWith({ tool_modules: [{ path: "./t.ts", dependency_root: "..vendor/lib" }, { path: "./u.ts", dependency_root: "./...deps" }] });
    const { config } = await loadConfig({ programDir: dir });
    expect(config.tool_modules.map((m) => m.dependency_root)).toEqual(["..vendor/lib", "./...deps"]);
  });
});

describe("§10 strict policy block: validated in full (its enforcement is a later issue)", () => {
  test("a well-formed tool_module_policy is read as written", async () => {
    const { config } = await loadConfig({ configPath: "policy.json", programDir: FIXTURES, cwd: FIXTURES });
    expect(config.tool_module_policy).toEqual({
      sandbox: "strict",
      allow_builtins: ["crypto"],
      allow_env: false,
      allow_network: false,
      max_memory_mb: 256,
      max_concurrency: 2,
    });
  });
});

describe("§11 idempotency_store: the shape each backend takes", () => {
  const valid: [string, unknown][] = [
    ["memory", { backend: "memory" }],
    ["file with encryption", { backend: "file", path: "store.json", encryption: "aes-256-gcm" }],
    ["sqlite", { backend: "sqlite", path: "store.db" }],
    ["postgres with url_env", { backend: "postgres", url_env: "DATABASE_URL" }],
    ["redis with url", { backend: "redis", url: "redis://localhost:6379" }],
    ["sqlite, postgres and redis with encryption", { backend: "redis", url_env: "REDIS_URL", encryption: "aes-256-gcm" }],
  ];
  for (const [name, store] of valid) {
    test(`valid: ${name}`, async () => {
      const { config } = await loadConfig({ programDir: projectWith({ idempotency_store: store }) });
      expect(config.idempotency_store).toEqual(store as never);
    });
  }

  const invalid: [string, unknown, string[]][] = [
    ["memory with a path", { backend: "memory", path: "x" }, ["'idempotency_store.path' does not apply to the memory backend"]],
    ["sqlite with a url", { backend: "sqlite", url: "x" }, ["'idempotency_store.url' does not apply to the sqlite backend"]],
    ["postgres without a url", { backend: "postgres" }, ["the postgres backend needs 'idempotency_store.url' or 'idempotency_store.url_env'"]],
    ["redis with both", { backend: "redis", url: "redis://x", url_env: "R" }, ["the redis backend takes only one of 'idempotency_store.url' or 'idempotency_store.url_env'"]],
    ["no backend", { path: "x" }, ["'idempotency_store.backend' is required"]],
    ["unknown encryption", { backend: "file", encryption: "rot13" }, [`'idempotency_store.encryption' must be one of "aes-256-gcm" (got "rot13")`]],
  ];
  for (const [name, store, problems] of invalid) {
    test(`invalid: ${name}`, async () => {
      const error = await startupFailure(() => loadConfig({ programDir: projectWith({ idempotency_store: store }) }));
      expect(error.message.split("\n")).toEqual(problems.map((p) => `luma.config.json: ${p}`));
    });
  }
});

describe("§8 tool_contexts: { context: { field: { env, parse? } } }", () => {
  test("every parse kind is accepted", async () => {
    const fields = Object.fromEntries(["string", "json", "number", "integer", "boolean"].map((parse, i) => [`f${i}`, { env: `V_${i}`, parse }]));
    const { config } = await loadConfig({ programDir: projectWith({ tool_contexts: { ctx: fields } }) });
    expect(config.tool_contexts.ctx).toEqual(fields as never);
  });

  test("env must be an environment variable name", async () => {
    const error = await startupFailure(() => loadConfig({ programDir: projectWith({ tool_contexts: { db: { user: { env: "DB USER" } } } }) }));
    expect(error.message).toBe(`luma.config.json: 'tool_contexts.db.user.env' must be an environment variable name (got "DB USER")`);
  });
});

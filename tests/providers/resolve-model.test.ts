import { describe, expect, test } from "bun:test";
import { parse } from "../../src/syntax/parse";
import type { ModelDecl } from "../../src/syntax/ast";
import { assertSendable, resolveModel } from "../../src/runtime/providers/resolve-model";
import { requestTurn } from "../../src/runtime/providers/provider-client";
import { adapterFor } from "../../src/runtime/providers/adapter-table";

const model = (body: string): ModelDecl => {
  const { program } = parse(`model GPT54Mini { ${body} }`, "m.luma");
  return program!.decls[0] as ModelDecl;
};
const urlOf = (decl: ModelDecl, env: Record<string, string>) => {
  const m = resolveModel(decl, env);
  return adapterFor(m.provider).buildRequest(m, { transcript: [], toolChoice: { type: "auto" } }).url;
};

describe("§5 models: base_url means what it means in each provider's SDK", () => {
  test("openai: default https://api.openai.com/v1, the adapter appends /chat/completions", () => {
    expect(urlOf(model(`provider: "openai" name: "gpt-5.4-mini"`), { OPENAI_API_KEY: "k" })).toBe("https://api.openai.com/v1/chat/completions");
  });
  test("openai-compatible: base_url ends in the version segment (trailing slash tolerated)", () => {
    expect(urlOf(model(`provider: "openai-compatible" name: "llama3" base_url: "http://127.0.0.1:11434/v1/"`), {})).toBe(
      "http://127.0.0.1:11434/v1/chat/completions",
    );
  });
  test("anthropic: the host; the adapter appends /v1/messages", () => {
    expect(urlOf(model(`provider: "anthropic" name: "claude"`), { ANTHROPIC_API_KEY: "k" })).toBe("https://api.anthropic.com/v1/messages");
  });
  test("gemini: the host; the adapter appends /v1beta/models/<name>:generateContent", () => {
    expect(urlOf(model(`provider: "gemini" name: "gemini-3-flash"`), { GEMINI_API_KEY: "k" })).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-flash:generateContent",
    );
  });
  test("azure: AZURE_OPENAI_ENDPOINT + deployment → the v1 URL, or the dated URL with api_version", () => {
    const env = { AZURE_OPENAI_API_KEY: "k", AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com/" };
    expect(urlOf(model(`provider: "azure" name: "gpt-4o" deployment: "prod"`), env)).toBe("https://res.openai.azure.com/openai/v1/chat/completions");
    expect(urlOf(model(`provider: "azure" name: "gpt-4o" deployment: "prod" api_version: "2024-10-21"`), env)).toBe(
      "https://res.openai.azure.com/openai/deployments/prod/chat/completions?api-version=2024-10-21",
    );
    expect(resolveModel(model(`provider: "azure" name: "gpt-4o"`), env).name).toBe("gpt-4o");
  });
  test("azure without base_url or AZURE_OPENAI_ENDPOINT is a clear PROVIDER_ERROR", () => {
    expect(() => resolveModel(model(`provider: "azure" name: "gpt-4o"`), { AZURE_OPENAI_API_KEY: "k" })).toThrow(
      `Model 'GPT54Mini' (provider "azure") needs a base_url or the environment variable AZURE_OPENAI_ENDPOINT.`,
    );
  });
  test('"LUMA_BASE_URL_<MODELNAME>, the declaration name upper-cased" overrides base_url for every provider', () => {
    const env = { OPENAI_API_KEY: "k", LUMA_BASE_URL_GPT54MINI: "http://proxy.local/v1" };
    expect(urlOf(model(`provider: "openai" name: "x" base_url: "http://elsewhere/v1"`), env)).toBe("http://proxy.local/v1/chat/completions");
  });
});

describe("§5 models: credentials", () => {
  test("default key variables per provider, and api_key_env overrides", () => {
    expect(resolveModel(model(`provider: "openai" name: "x"`), { OPENAI_API_KEY: "a" }).apiKey).toBe("a");
    expect(resolveModel(model(`provider: "anthropic" name: "x"`), { ANTHROPIC_API_KEY: "b" }).apiKey).toBe("b");
    expect(resolveModel(model(`provider: "gemini" name: "x"`), { GEMINI_API_KEY: "c" }).apiKey).toBe("c");
    expect(resolveModel(model(`provider: "openai" name: "x" api_key_env: "MY_KEY"`), { MY_KEY: "d", OPENAI_API_KEY: "no" }).apiKey).toBe("d");
  });
  test("a missing key is a PROVIDER_ERROR naming the variable, never a value", () => {
    expect(() => resolveModel(model(`provider: "openai" name: "x"`), {})).toThrow(
      `Model 'GPT54Mini' (provider "openai") needs an API key: environment variable OPENAI_API_KEY is not set.`,
    );
  });
  test('"openai-compatible may run without a key" — and never picks up OPENAI_API_KEY', () => {
    const m = resolveModel(model(`provider: "openai-compatible" name: "llama3" base_url: "http://h/v1"`), { OPENAI_API_KEY: "real-openai-key" });
    expect(m.apiKey).toBeUndefined();
    const req = adapterFor("openai-compatible").buildRequest(m, { transcript: [], toolChoice: { type: "auto" } });
    expect(req.headers.authorization).toBeUndefined();
  });
  test("with --replay nothing is sent, so no key or endpoint is needed", () => {
    expect(resolveModel(model(`provider: "openai" name: "x"`), {}, { replay: true }).apiKey).toBeUndefined();
    expect(resolveModel(model(`provider: "azure" name: "x"`), {}, { replay: true }).baseUrl).toBe("https://replay.invalid");
  });
  test("in a journaled run a missing key or endpoint waits for a request to send: the same error then, the endpoint's first", async () => {
    const keyless = resolveModel(model(`provider: "openai" name: "x"`), {}, { journaled: true });
    expect(keyless.apiKey).toBeUndefined();
    expect(() => assertSendable(keyless)).toThrow(`Model 'GPT54Mini' (provider "openai") needs an API key: environment variable OPENAI_API_KEY is not set.`);
    const azure = resolveModel(model(`provider: "azure" name: "x"`), {}, { journaled: true });
    expect(() => assertSendable(azure)).toThrow(`Model 'GPT54Mini' (provider "azure") needs a base_url or the environment variable AZURE_OPENAI_ENDPOINT.`);
    // Whatever path a request takes, it is never sent without its key: the transport is not reached.
    let sent = 0;
    const client = { transport: async () => (sent++, { status: 200, headers: {}, body: "{}" }), sleep: async () => {}, now: () => 0 } as never;
    const turn = requestTurn(client, keyless, adapterFor(keyless.provider), { transcript: [], toolChoice: { type: "auto" } }, { turn: 0 });
    await expect(turn).rejects.toMatchObject({ code: "PROVIDER_ERROR", retryable: false });
    expect(sent).toBe(0);
    // With everything present there is nothing to defer.
    expect(() => assertSendable(resolveModel(model(`provider: "openai" name: "x"`), { OPENAI_API_KEY: "k" }, { journaled: true }))).not.toThrow();
  });
  test("auth headers: Bearer (OpenAI), api-key (Azure), x-api-key (Anthropic), x-goog-api-key (Gemini, never in the URL)", () => {
    const headers = (body: string, env: Record<string, string>) => {
      const m = resolveModel(model(body), env);
      const r = adapterFor(m.provider).buildRequest(m, { transcript: [], toolChoice: { type: "auto" } });
      expect(r.url).not.toContain(Object.values(env)[0]);
      for (const h of r.secretHeaders) if (r.headers[h] !== undefined) expect(r.headers[h]).toContain(Object.values(env)[0]);
      return r.headers;
    };
    expect(headers(`provider: "openai" name: "x"`, { OPENAI_API_KEY: "k1" }).authorization).toBe("Bearer k1");
    expect(headers(`provider: "azure" name: "x" base_url: "https://r/openai/v1"`, { AZURE_OPENAI_API_KEY: "k2" })["api-key"]).toBe("k2");
    expect(headers(`provider: "anthropic" name: "x"`, { ANTHROPIC_API_KEY: "k3" })["x-api-key"]).toBe("k3");
    expect(headers(`provider: "gemini" name: "x"`, { GEMINI_API_KEY: "k4" })["x-goog-api-key"]).toBe("k4");
  });
});

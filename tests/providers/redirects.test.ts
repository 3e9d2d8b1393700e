import { afterAll, describe, expect, test } from "bun:test";
import { KEYS, type ProviderKind } from "../ask/ask-harness";
import { ANSWER, loggingServer, runProgram } from "./provider-servers";

/** Every family, each with a key (the compatible server gets one through api_key_env). */
const KINDS: { kind: ProviderKind; key: string; modelExtra?: string; env?: Record<string, string> }[] = [
  { kind: "openai", key: KEYS.openai.OPENAI_API_KEY },
  { kind: "openai-compatible", key: "local-key-C0mpat", modelExtra: `api_key_env: "LOCAL_KEY"`, env: { LOCAL_KEY: "local-key-C0mpat" } },
  { kind: "azure", key: KEYS.azure.AZURE_OPENAI_API_KEY },
  { kind: "azure-dated", key: KEYS["azure-dated"].AZURE_OPENAI_API_KEY },
  { kind: "anthropic", key: KEYS.anthropic.ANTHROPIC_API_KEY },
  { kind: "gemini", key: KEYS.gemini.GEMINI_API_KEY },
];

const CREDENTIAL_HEADERS = ["authorization", "api-key", "x-api-key", "x-goog-api-key"];
const servers: { stop(): void }[] = [];
const serve = (...a: Parameters<typeof loggingServer>) => {
  const s = loggingServer(...a);
  servers.push(s);
  return s;
};
afterAll(() => servers.forEach((s) => s.stop()));

const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });
const printed = `{"summary":"ok","score":${ANSWER.score}}`;

describe("§14 a provider's redirect never carries the API key to another origin", () => {
  for (const { kind, key, modelExtra, env } of KINDS) {
    test(`${kind}: a 307 to another port is refused with PROVIDER_ERROR naming the model and the target origin; the other server gets nothing`, async () => {
      const other = serve();
      const provider = serve((path) => redirect(307, `${other.url}${path}?key=LEAKY-QUERY-${key}&x=1`));
      const r = await runProgram(kind, provider.baseUrl(kind), { modelExtra, env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`[PROVIDER_ERROR] Model 'M' (provider "${kind === "azure-dated" ? "azure" : kind}") answered HTTP 307 redirecting to ${other.url}: another origin than ${provider.url}; it was refused so the API key is not sent there at `);
      expect(r.stderr).not.toContain("LEAKY-QUERY");
      expect(r.stderr).not.toContain(key);
      expect(r.stderr).not.toContain("    at "); // no stack trace
      // The provider got the key (the request was real)…
      expect(provider.requests.length).toBe(1);
      expect(Object.values(provider.requests[0].headers).join(" ")).toContain(key);
      // …the other origin was never contacted: no credential header, no key query, nothing.
      expect(other.requests).toEqual([]);
      for (const req of other.requests) {
        for (const h of CREDENTIAL_HEADERS) expect(req.headers[h]).toBeUndefined();
        expect(req.query.key).toBeUndefined();
      }
    });
  }

  test("every redirect status (301, 302, 303, 308) to another origin is refused; so is http → https of the same host", async () => {
    const other = serve();
    for (const status of [301, 302, 303, 308]) {
      const provider = serve((path) => redirect(status, `${other.url}${path}`));
      const r = await runProgram("anthropic", provider.baseUrl("anthropic"));
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`answered HTTP ${status} redirecting to ${other.url}: another origin`);
    }
    const provider = serve((path) => redirect(307, `${provider.url.replace("http:", "https:")}${path}`));
    const r = await runProgram("gemini", provider.baseUrl("gemini"));
    expect(r.stderr).toContain(`redirecting to ${provider.url.replace("http:", "https:")}: another origin than ${provider.url}`);
    expect(other.requests).toEqual([]);
  });

  test("a same-origin 307/308 is followed with the POST, its body and the key; the answer is used", async () => {
    const provider = serve((path) => (path.startsWith("/moved") ? undefined : redirect(path.includes("messages") ? 308 : 307, `/moved${path}`)));
    for (const { kind, key, modelExtra, env } of KINDS) {
      provider.requests.length = 0;
      const r = await runProgram(kind, provider.baseUrl(kind), { modelExtra, env });
      expect(r.stderr).toBe("");
      expect(r.stdout.replace(/\s/g, "")).toBe(printed);
      expect(provider.requests.map((q) => q.method)).toEqual(["POST", "POST"]);
      expect(provider.requests[1].path).toStartWith("/moved/");
      expect(Object.values(provider.requests[1].headers).join(" ")).toContain(key);
    }
  });

  test("a same-origin 301/302/303 (which would turn the POST into a GET) is refused, naming base_url", async () => {
    for (const status of [301, 302, 303]) {
      const provider = serve((path) => (path.startsWith("/moved") ? undefined : redirect(status, `/moved${path}`)));
      const r = await runProgram("openai", provider.baseUrl("openai"));
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`answered HTTP ${status} redirecting to ${provider.url}: a redirect that drops the request body; it was refused (check base_url) at `);
      expect(provider.requests.length).toBe(1);
    }
  });

  test("a same-origin redirect loop stops after 5 hops with PROVIDER_ERROR (not retried)", async () => {
    const loop = serve(() => redirect(307, "/v1/chat/completions"));
    const r = await runProgram("openai", loop.baseUrl("openai"));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`answered HTTP 307 redirecting to ${loop.url}: more than 5 redirects; the last was refused at `);
    expect(loop.requests.length).toBe(6);
  });
});

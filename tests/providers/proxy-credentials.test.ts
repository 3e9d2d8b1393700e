import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { program, runAsk, type AskRun } from "../ask/ask-harness";
import { redact } from "../../src/runtime/providers/provider-errors";
import type { Transport, WireRequest } from "../../src/runtime/providers/transport";

const PROXY = "https://proxyuser:pr0xy-T0ken%21@proxy.invalid/v1";
const LEAKS = ["pr0xy-T0ken", "proxyuser", "pr0xy-T0ken!"];
const ANSWER = { choices: [{ message: { role: "assistant", content: '{"summary":"ok","score":2}' } }], usage: { prompt_tokens: 1, completion_tokens: 1 } };

/** Everything a run leaves behind: output, the error, every file in its directory (trace, cassette). */
const everything = (r: AskRun) =>
  [...r.out, ...r.err, r.error?.message ?? "", JSON.stringify(r.error?.details ?? null), ...readdirSync(r.dir).map((f) => readFileSync(join(r.dir, f), "utf8"))].join("\n");

const src = program("openai", "", `ask "Rate" -> Answer`);

describe("§14 a LUMA_BASE_URL_… proxy's user:password@ never reaches a cassette, an error or a trace", () => {
  test("the recorded request names the proxy without its credentials (regression)", async () => {
    const seen: WireRequest[] = [];
    const transport: Transport = async (req) => {
      seen.push(req);
      return { status: 200, headers: { "content-type": "application/json" }, text: JSON.stringify(ANSWER) };
    };
    const r = await runAsk(undefined, src, { env: { LUMA_BASE_URL_M: PROXY }, transport, record: "c.jsonl" });
    expect(r.error).toBeUndefined();
    expect(seen[0].url).toBe(`${PROXY}/chat/completions`); // the request itself still carries them…
    const cassette = readFileSync(join(r.dir, "c.jsonl"), "utf8");
    expect(JSON.parse(cassette.split("\n")[0]).request.url).toBe("https://[redacted]@proxy.invalid/v1/chat/completions");
    for (const leak of LEAKS) expect(everything(r)).not.toContain(leak); // …nothing stored does
  });

  test("a connection error quoting the proxy URL is redacted", async () => {
    const transport: Transport = async (req) => {
      throw Object.assign(new Error(`connect ECONNREFUSED ${req.url} (password pr0xy-T0ken! rejected)`), { code: "ECONNREFUSED" });
    };
    const r = await runAsk(undefined, src, { env: { LUMA_BASE_URL_M: PROXY }, transport, record: "c.jsonl" });
    expect(r.error?.code).toBe("PROVIDER_ERROR");
    expect(r.error?.message).toContain("https://[redacted]@proxy.invalid/v1/chat/completions");
    expect(r.error?.message).toContain("password [redacted] rejected");
    for (const leak of LEAKS) expect(everything(r)).not.toContain(leak);
  });

  test("an HTTP error body that echoes the proxy URL is redacted", async () => {
    const transport: Transport = async (req) => ({ status: 407, headers: {}, text: `proxy auth failed for ${req.url}` });
    const r = await runAsk(undefined, src, { env: { LUMA_BASE_URL_M: PROXY }, transport, record: "c.jsonl" });
    expect(r.error?.message).toContain("HTTP 407: proxy auth failed for https://[redacted]@proxy.invalid/v1/chat/completions");
    for (const leak of LEAKS) expect(everything(r)).not.toContain(leak);
  });

  test("provider redaction shares the datasource one: URL userinfo and known values, marked [redacted]", () => {
    expect(redact("GET https://u:p@h/x with key sk-abc123", ["sk-abc123"])).toBe("GET https://[redacted]@h/x with key [redacted]");
  });
});

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeProvider, program, runAsk } from "../ask/ask-harness";
import { requestHash } from "../../src/runtime/providers/cassette";

const TOOL_ASK = `ask "Add 2 and 3, then answer." -> FinalResult`;
const TURNS = [{ toolCalls: [{ name: "calculate", args: { a: 2, b: 3, operation: "add" } }] }, { json: { words: 0, sum: 5 } }];
const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("record/replay (extension)", () => {
  test("--record saves each provider exchange (request minus secrets, response); --replay answers it offline, with no key", async () => {
    const fake = await fakeProvider();
    fake.script(TURNS);
    const src = program("openai", "tools: [calculate]", TOOL_ASK);
    const rec = await runAsk(fake, src, { record: "cassette.jsonl" });
    expect(rec.error).toBeUndefined();
    const cassette = join(rec.dir, "cassette.jsonl");
    const entries = lines(cassette);
    expect(entries.length).toBe(2);
    expect(entries[0]).toMatchObject({ provider: "openai", model: "gpt-5.4-mini", request: { method: "POST", headers: { "content-type": "application/json" } } });
    expect(entries[0].request.headers.authorization).toBeUndefined();
    expect(entries[1].response.body.choices[0].message.content).toBe('{"words":0,"sum":5}');
    expect(readFileSync(cassette, "utf8")).not.toContain("sk-test-openai");

    fake.script([]);
    const rep = await runAsk(undefined, src, { replay: cassette, env: { OPENAI_API_KEY: undefined } });
    expect(rep.error).toBeUndefined();
    expect(rep.out).toEqual(rec.out);
    expect(fake.requests).toEqual([]);
    expect(rep.trace.filter((e) => e.event === "tool.call").length).toBe(1);
  });

  test("requests match by a stable hash of provider, model and body — not the URL, so a cassette replays wherever it was recorded", async () => {
    const body = { b: 1, a: [1, { y: 2, x: 1 }] };
    const h = requestHash({ provider: "openai", model: "m", body });
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash({ provider: "openai", model: "m", body: { a: [1, { x: 1, y: 2 }], b: 1 } })).toBe(h);
    expect(requestHash({ provider: "anthropic", model: "m", body })).not.toBe(h);
    expect(requestHash({ provider: "openai", model: "m2", body })).not.toBe(h);

    const fake = await fakeProvider();
    fake.script(TURNS);
    const src = program("anthropic", "tools: [calculate]", TOOL_ASK);
    const rec = await runAsk(fake, src, { kind: "anthropic", record: "c.jsonl" });
    const rep = await runAsk(undefined, src, { kind: "anthropic", replay: join(rec.dir, "c.jsonl"), env: { LUMA_BASE_URL_M: "http://never.invalid" } });
    expect(rep.error).toBeUndefined();
    expect(rep.out).toEqual(['{"words":0,"sum":5}']);
  });

  test("identical requests get their recorded answers in order (a 429, then the answer)", async () => {
    const fake = await fakeProvider();
    fake.script([{ status: 429, headers: { "retry-after": "1" } }, { json: { summary: "ok", score: 2 } }]);
    const src = program("gemini", "", `ask "Rate" -> Answer`);
    const rec = await runAsk(fake, src, { kind: "gemini", record: "c.jsonl" });
    expect(lines(join(rec.dir, "c.jsonl")).map((e) => e.response.status)).toEqual([429, 200]);
    const rep = await runAsk(undefined, src, { kind: "gemini", replay: join(rec.dir, "c.jsonl") });
    expect(rep.out).toEqual(['{"summary":"ok","score":2}']);
    expect(rep.trace.filter((e) => e.event === "provider.request").map((e) => e.status)).toEqual([429, 200]);
  });

  test('"failing clearly on a request it has no answer for" — not retried', async () => {
    const fake = await fakeProvider();
    fake.script([{ json: { summary: "ok", score: 2 } }]);
    const rec = await runAsk(fake, program("openai", "", `ask "Rate" -> Answer`), { record: "c.jsonl" });
    const rep = await runAsk(undefined, program("openai", "retries: 2", `ask "Rate this instead" -> Answer`), { replay: join(rec.dir, "c.jsonl") });
    expect(rep.error?.code).toBe("PROVIDER_ERROR");
    expect(rep.error?.message).toMatch(
      /^The cassette .*c\.jsonl has no recorded answer for this request to model 'M' \(provider "openai"\) \(request hash [0-9a-f]{12}\); record it again with --record at /,
    );
    expect(rep.sleeps).toEqual([]);
  });

  test("an unreadable cassette rejects the program before it runs", async () => {
    const r = await runAsk(undefined, `print("side effect")\n${program("openai", "", `ask "x" -> Answer`)}`, { replay: "/nonexistent/c.jsonl" });
    expect(r.error?.phase).toBe("startup");
    expect(r.error?.message).toBe("cannot read cassette /nonexistent/c.jsonl: no such file (named by --replay)");
    expect(r.out).toEqual([]);
  });
});

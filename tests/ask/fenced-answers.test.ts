import { describe, expect, test } from "bun:test";
import { runProgram } from "../providers/provider-servers";
import { fakeProvider, program, runAsk, type ProviderKind } from "./ask-harness";

const ASK = `ask "Rate" -> Answer`;
const FENCED = '```json\n{"summary":"ok","score":4}\n```';
const askEvent = (trace: any[]) => trace.find((e) => e.event === "ask");

describe("§7 a final answer wrapped in a ```json fence is accepted, the fence stripped and noted in the trace", () => {
  for (const kind of ["openai", "openai-compatible", "anthropic", "gemini"] as ProviderKind[]) {
    test(`${kind}: a fenced answer is the value, in one attempt; the ask event says fence_stripped`, async () => {
      const fake = await fakeProvider();
      fake.script([{ text: FENCED }]);
      const r = await runAsk(fake, program(kind, "", ASK), { kind });
      expect(r.error).toBeUndefined();
      expect(r.out).toEqual(['{"summary":"ok","score":4}']);
      expect(askEvent(r.trace)).toMatchObject({ attempts: 1, outcome: "ok", fence_stripped: true });
    });
  }

  test("a bare ``` fence, CRLF line ends and surrounding whitespace are stripped too; a plain answer says fence_stripped: false", async () => {
    const fake = await fakeProvider();
    for (const text of ['```\n{"summary":"a","score":1}\n```', '\r\n  ```JSON\r\n{"summary":"a","score":1}\r\n```\r\n']) {
      fake.script([{ text }]);
      const r = await runAsk(fake, program("openai", "", ASK));
      expect([text, r.out]).toEqual([text, ['{"summary":"a","score":1}']]);
      expect(askEvent(r.trace).fence_stripped).toBe(true);
    }
    fake.script([{ json: { summary: "a", score: 1 } }]);
    expect(askEvent((await runAsk(fake, program("openai", "", ASK))).trace).fence_stripped).toBe(false);
  });

  test("prose around a fence, two fences or an unclosed fence stay invalid: ASK_OUTPUT_INVALID (JSON is not guessed out of text)", async () => {
    const fake = await fakeProvider();
    for (const text of [`Here you go:\n${FENCED}`, `${FENCED}\nHope that helps!`, `${FENCED}\n${FENCED}`, '```json\n{"summary":"ok","score":4}']) {
      fake.script([{ text }]);
      const r = await runAsk(fake, program("openai", "", ASK));
      expect([text, r.error?.code]).toEqual([text, "ASK_OUTPUT_INVALID"]);
      expect(r.error?.message).toContain("The answer is not valid JSON");
    }
  });

  test("a fenced answer is still validated: a schema violation inside the fence is fed back and retried", async () => {
    const fake = await fakeProvider();
    fake.script([{ text: '```json\n{"summary":"ok","score":99}\n```' }, { text: FENCED }]);
    const r = await runAsk(fake, program("openai", "retries: 1", ASK));
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(['{"summary":"ok","score":4}']);
    expect(askEvent(r.trace)).toMatchObject({ attempts: 2, fence_stripped: true });
    expect(fake.requests.length).toBe(2);
  });

  test("through the binary: a fenced answer prints the value; --trace shows fence_stripped", async () => {
    const fake = await fakeProvider();
    fake.script([{ text: FENCED }]);
    const r = await runProgram("anthropic", fake.baseUrl("anthropic"), { args: ["--trace", "-"] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('{"summary":"ok","score":4}\n');
    const events = r.stderr.trim().split("\n").map((l) => JSON.parse(l));
    expect(events.find((e) => e.event === "ask")).toMatchObject({ outcome: "ok", attempts: 1, fence_stripped: true });
  });
});

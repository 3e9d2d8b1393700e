import { describe, expect, test } from "bun:test";
import { fakeProvider, program, runAsk } from "./ask-harness";
import { finalFormat, lastUserText } from "./wire-inspect";

describe("§6–7 retries: the LLM retry loop", () => {
  for (const kind of ["openai", "anthropic", "gemini"] as const) {
    test(`${kind}: "invalid final JSON (parse or schema): with retries left, the runtime asks again, telling the model what was wrong"`, async () => {
      const fake = await fakeProvider();
      fake.script([{ text: "Sure! Here it is." }, { json: { summary: "ok", score: 42 } }, { json: { summary: "ok", score: 9 } }]);
      const r = await runAsk(fake, program(kind, "retries: 2", `ask "Rate" -> Answer`), { kind });
      expect(r.error).toBeUndefined();
      expect(r.out).toEqual(['{"summary":"ok","score":9}']);
      expect(fake.requests.length).toBe(3);
      expect(lastUserText(fake.requests[1])).toStartWith("Your previous answer was invalid: The answer is not valid JSON");
      expect(lastUserText(fake.requests[2])).toStartWith("Your previous answer was invalid: Answer.score must be <= 10 (@range).");
      expect(lastUserText(fake.requests[2])).toContain('"required":["summary","score"]');
      expect(r.trace.find((e) => e.event === "ask")).toMatchObject({ attempts: 3, outcome: "ok" });
    });
  }

  test('"else ASK_OUTPUT_INVALID": the error names the target, the attempts and what was wrong, at the ask', async () => {
    const fake = await fakeProvider();
    fake.script([{ json: { summary: "ok" } }, { json: { summary: "ok", score: "high" } }]);
    const r = await runAsk(fake, program("openai", "retries: 1", `ask "Rate" -> Answer`));
    expect(r.error?.code).toBe("ASK_OUTPUT_INVALID");
    expect(r.error?.message).toMatch(/^The answer of model 'M' to ask -> Answer was invalid after 2 attempts: Answer\.score must be an integer, got string \(type\) at .*main\.luma:\d+:\d+$/);
  });

  test("without retries one invalid answer fails the ask", async () => {
    const fake = await fakeProvider();
    fake.script([{ text: "" }]);
    const r = await runAsk(fake, program("openai", "", `ask "Rate" -> Answer`));
    expect(r.error?.code).toBe("ASK_OUTPUT_INVALID");
    expect(r.error?.message).toContain("The answer was empty");
    expect(fake.requests.length).toBe(1);
  });

  test("a refusal is an invalid answer (fed back like any other)", async () => {
    const fake = await fakeProvider();
    fake.script([{ refusal: "I can't help with that." }, { json: { summary: "ok", score: 1 } }]);
    const r = await runAsk(fake, program("openai", "retries: 1", `ask "Rate" -> Answer`));
    expect(r.error).toBeUndefined();
    expect(lastUserText(fake.requests[1])).toContain("The model refused to answer: I can't help with that.");
  });

  test("a provider failure that survived its HTTP retries is a failed attempt: with retries left the same request is sent again", async () => {
    const fake = await fakeProvider();
    const down = { status: 503, message: "overloaded" };
    fake.script([down, down, down, down, { json: { summary: "ok", score: 3 } }]);
    const r = await runAsk(fake, program("openai", "retries: 1", `ask "Rate" -> Answer`));
    expect(r.error).toBeUndefined();
    expect(fake.requests.length).toBe(5);
    expect(fake.requests[4].body).toEqual(fake.requests[0].body);
    expect(r.sleeps).toEqual([500, 1000, 2000]);
  });

  test("a non-retryable provider error (400, 401…) ends the ask at once, whatever retries says", async () => {
    const fake = await fakeProvider();
    fake.script([{ status: 400, message: "Invalid 'messages': bad" }]);
    const r = await runAsk(fake, program("openai", "retries: 3", `ask "Rate" -> Answer`));
    expect(r.error?.code).toBe("PROVIDER_ERROR");
    expect(r.error?.retryable).toBe(false);
    expect(r.error?.message).toMatch(/^Model 'M' \(provider "openai"\) request failed with HTTP 400: Invalid 'messages': bad at .*main\.luma:\d+:\d+$/);
    expect(fake.requests.length).toBe(1);
  });
});

describe("§7 the final value", () => {
  test('"a non-object target type is wrapped as { value: T } on the wire and unwrapped on return"', async () => {
    const fake = await fakeProvider();
    for (const [type, value, printed] of [["string[]", ["a", "b"], '["a","b"]'], ["int", 7, "7"], ["string", "hi", "hi"]] as const) {
      fake.script([{ json: { value } }]);
      const r = await runAsk(fake, program("openai", "", `ask "List" -> ${type}`));
      expect(r.error).toBeUndefined();
      expect(r.out).toEqual([printed]);
      const format = fake.requests[0].body.response_format.json_schema;
      expect(format.name).toBe("Result");
      expect(format.schema.required).toEqual(["value"]);
      expect(format.schema.additionalProperties).toBe(false);
    }
  });

  test("a tagged-union target (an anyOf root) is wrapped too", async () => {
    const fake = await fakeProvider();
    const decls = `schema Invoice { invoice_number: string }\nschema Receipt { reference: string }\nschema Document = Invoice | Receipt tagged by kind\n`;
    fake.script([{ json: { value: { kind: "Receipt", reference: "R-1" } } }]);
    const r = await runAsk(fake, program("anthropic", "", `ask "Classify" -> Document`, { decls }), { kind: "anthropic" });
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(['{"kind":"Receipt","reference":"R-1"}']);
    expect(finalFormat(fake.requests[0])?.properties.value.anyOf.length).toBe(2);
  });

  test('"OpenAI strict requires every property in required: an optional field is sent required-and-nullable and its null dropped on return"', async () => {
    const fake = await fakeProvider();
    fake.script([{ json: { summary: "ok", score: 5, tags: null } }]);
    const r = await runAsk(fake, program("openai", "", `ask "Rate" -> Answer`));
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(['{"summary":"ok","score":5}']);
    const schema = fake.requests[0].body.response_format.json_schema.schema;
    expect(schema.required).toEqual(["summary", "score", "tags"]);
    expect(schema.properties.tags).toEqual({ anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] });
  });

  test("an optional tool parameter is nullable in OpenAI's strict tool schema; a null argument is dropped before validation", async () => {
    const fake = await fakeProvider();
    const decls = `schema Page { n: int }\ntool page(size?: int @default(10)) -> Page {}\n`;
    fake.script([{ toolCalls: [{ name: "page", args: { size: null } }] }, { json: { words: 0, sum: 0 } }]);
    const r = await runAsk(fake, program("openai", "tools: [page]", `ask "x" -> FinalResult`, { decls }), {
      toolModule: `export const page = (input: { size: number }) => ({ n: input.size });`,
    });
    expect(r.error).toBeUndefined();
    const tool = fake.requests[0].body.tools[0].function;
    expect(tool.strict).toBe(true);
    expect(tool.parameters.required).toEqual(["size"]);
    expect(JSON.parse(fake.requests[1].body.messages[2].content)).toEqual({ n: 10 });
  });

  test("Anthropic's schema subset: unsupported bounds move into the description; the rule is still checked locally", async () => {
    const fake = await fakeProvider();
    fake.script([{ json: { summary: "ok", score: 11 } }]);
    const r = await runAsk(fake, program("anthropic", "", `ask "Rate" -> Answer`), { kind: "anthropic" });
    expect(r.error?.code).toBe("ASK_OUTPUT_INVALID");
    expect(fake.requests[0].body.output_config.format.schema.properties.score).toEqual({ type: "integer", description: "{minimum: 0, maximum: 10}" });
  });

  test('"__proto__ / constructor keys in model JSON cannot pollute prototypes"', async () => {
    const fake = await fakeProvider();
    const decls = `schema Box { data: any }\n`;
    fake.script([{ text: '{"data": {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "\\u005f_proto__": {"polluted": 2}, "ok": 1}}' }]);
    const r = await runAsk(fake, program("openai", "", `ask "x" -> Box`, { decls }));
    expect(r.error).toBeUndefined();
    expect(({} as any).polluted).toBeUndefined();
    expect((Object.prototype as any).polluted).toBeUndefined();
    expect(r.out).toEqual(['{"data":{"constructor":{"prototype":{"polluted":true}},"ok":1}}']);
  });

  test("a soft rule failing on the answer annotates it: warning on stderr and a validation.soft trace event, value kept", async () => {
    const fake = await fakeProvider();
    const decls = `schema Mood { level: int @range(0, 5) @severity("soft") }\n`;
    fake.script([{ json: { level: 9 } }]);
    const r = await runAsk(fake, program("openai", "", `ask "x" -> Mood`, { decls }));
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(['{"level":9}']);
    expect(r.err).toEqual([expect.stringMatching(/^warning: Mood\.level must be <= 5 \(@range\) at .*main\.luma:\d+:\d+$/)]);
    expect(r.trace.find((e) => e.event === "validation.soft")).toMatchObject({ agent: "A", path: "Mood.level", rule: "@range" });
  });

  test("the prompt is the interpolated string; a non-string prompt is rendered like interpolation", async () => {
    const fake = await fakeProvider();
    fake.script([{ json: { summary: "x", score: 1 } }]);
    await runAsk(fake, program("openai", "", `n = 3\n    ask "Rate {n} items" -> Answer`));
    expect(fake.requests[0].body.messages).toEqual([{ role: "user", content: "Rate 3 items" }]);
  });
});

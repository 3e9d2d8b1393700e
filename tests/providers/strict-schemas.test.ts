/**
 * Strict-mode schemas each provider accepts (issue #16 §1, docs/providers/strict-schemas.md), through the
 * real `dist/luma` against the fake provider: one Luma schema, adapted per provider —
 * OpenAI/Azure strict get only the documented keywords and formats (the rest in the
 * description, still validated locally) and a start-up error past the documented size
 * limits; Anthropic gets patterns only inside its regex subset, strict tools within the
 * per-request budgets, and a start-up error for an answer it cannot take; Gemini gets the
 * tagged-union tag as a one-value `enum` and a description on every function.
 */
import { describe, expect, test } from "bun:test";
import { fakeProvider, type ProviderKind } from "../ask/ask-harness";
import { finalFormat, toolParameters } from "../ask/wire-inspect";
import type { FakeTurn } from "../support/fake-provider/fake-provider";
import { runProgram } from "./provider-servers";
import { inAnthropicRegexSubset } from "../../src/runtime/providers/anthropic/anthropic-schema";
import { strictCost, withinStrictBudget } from "../../src/runtime/providers/anthropic/anthropic-strict-budget";
import { openAiStrictProblem } from "../../src/runtime/providers/openai/openai-schema-limits";

type Obj = Record<string, any>;

async function run(kind: ProviderKind, decls: string, agentBody: string, ask: string, turns: FakeTurn[], toolModule?: string) {
  const fake = await fakeProvider();
  fake.script(turns);
  const r = await runProgram(kind, fake.baseUrl(kind), { decls, agentBody, ask, toolModule });
  return { ...r, requests: [...fake.requests] };
}

/** Every sub-schema of a schema, depth first. */
function nodes(s: unknown, out: Obj[] = []): Obj[] {
  if (Array.isArray(s)) s.forEach((x) => nodes(x, out));
  else if (s && typeof s === "object") {
    out.push(s as Obj);
    Object.values(s).forEach((x) => nodes(x, out));
  }
  return out;
}

/** The answer format: sent with the final structured request (after the tool turns). */
const formatOf = (requests: { body: Obj; family: any }[]): Obj => requests.map((q) => finalFormat(q as never)).find(Boolean)!;

/** The schema of property `key` (an OpenAI optional field's `anyOf [T, null]` unwrapped). */
function prop(schema: Obj, key: string): Obj {
  const p = schema.properties[key];
  return Array.isArray(p.anyOf) && p.anyOf[1]?.type === "null" ? p.anyOf[0] : p;
}

const LINK = `
schema Link {
  url: string @format("uri") @desc("Where it points")
  seen: string @format("date-time")
  label?: string @length(1, 40) @default("home")
  rank: int @range(1, 5)
}
tool check_link(link: Link) -> Link { side_effects: "none" }
`;
const LINK_TOOLS = `export const lumaTools = { check_link: (i: { link: unknown }) => i.link };`;
const GOOD_LINK = { url: "https://example.com/a", seen: "2026-01-02T03:04:05Z", label: "a", rank: 2 };

describe("PROVIDERS §1.4 — OpenAI/Azure strict: only the documented keywords and formats are sent", () => {
  for (const kind of ["openai", "azure-dated", "openai-responses"] as const) {
    test(`${kind}: "uri" is not sent as a format; default and length bounds go into the description; supported keywords stay`, async () => {
      const turns: FakeTurn[] = [{ toolCalls: [{ name: "check_link", args: { link: GOOD_LINK } }] }, { json: GOOD_LINK }];
      const r = await run(kind, LINK, "tools: [check_link]", `ask "Find the link" -> Link`, turns, LINK_TOOLS);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      for (const schema of [formatOf(r.requests), toolParameters(r.requests[0], "check_link")!.properties.link]) {
        const all = nodes(schema);
        expect(all.some((n) => n.format === "uri" || "default" in n || "minLength" in n || "maxLength" in n)).toBe(false);
        expect(prop(schema, "url")).toEqual({ type: "string", description: 'Where it points\n\n{format: "uri"}' });
        expect(prop(schema, "seen")).toEqual({ type: "string", format: "date-time" });
        expect(prop(schema, "label")).toEqual({ type: "string", description: '{default: "home", minLength: 1, maxLength: 40}' });
        expect(prop(schema, "rank")).toEqual({ type: "integer", minimum: 1, maximum: 5 });
      }
    }, 30_000);
  }

  test('"with local validation still enforcing them": an answer whose url is no URI is rejected', async () => {
    const r = await run("openai", LINK, "tools: [check_link]", `ask "Find the link" -> Link`, [{ json: { ...GOOD_LINK, url: "not a uri" } }], LINK_TOOLS);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("url");
    expect(r.stderr).toMatch(/uri/i);
  }, 30_000);
});

/** `schema L0 { next: L1 }` … `schema L<depth-1> { leaf: string }`: `depth` levels of objects. */
function nested(depth: number): string {
  const lines: string[] = [];
  for (let i = 0; i < depth - 1; i++) lines.push(`schema L${i} { next: L${i + 1} }`);
  lines.push(`schema L${depth - 1} { leaf: string }`);
  return lines.join("\n") + "\n";
}

describe("PROVIDERS §1.4 — OpenAI/Azure documented limits are checked at start-up", () => {
  test("an answer 11 objects deep is rejected before any request, naming the schema, the limit and E0615", async () => {
    for (const kind of ["openai", "azure", "openai-responses"] as const) {
      const r = await run(kind, nested(11), "", `ask "Go" -> L0`, []);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("Schema 'L0'");
      expect(r.stderr).toContain("11 levels of object nesting (limit 10)");
      expect(r.stderr).toContain("E0615");
      expect(r.requests).toHaveLength(0);
    }
  }, 60_000);

  test("10 levels is within the limit and runs", async () => {
    let leaf: Obj = { leaf: "x" };
    for (let i = 0; i < 9; i++) leaf = { next: leaf };
    const r = await run("openai", nested(10), "", `ask "Go" -> L0`, [{ json: leaf }]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
  }, 30_000);

  test("a tool input with 1001 enum values is rejected naming the tool; openai-compatible servers have no such limit", async () => {
    const values = Array.from({ length: 1001 }, (_, i) => `"v${i}"`).join(", ");
    const decls = `tool pick(choice: enum[${values}]) -> Answer { side_effects: "none" }\n`;
    const tools = `export const lumaTools = { pick: () => ({ summary: "s", score: 1 }) };`;
    const r = await run("openai", decls, "tools: [pick]", `ask "Rate" -> Answer`, [], tools);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("The input of tool 'pick' (agent 'A')");
    expect(r.stderr).toContain("1001 enum values in total (limit 1000)");
    const ok = await run("openai-compatible", decls, "tools: [pick]", `ask "Rate" -> Answer`, [{ json: { summary: "s", score: 1 } }], tools);
    expect(ok.stderr).toBe("");
    expect(ok.exitCode).toBe(0);
  }, 60_000);
});

describe("PROVIDERS §3.4 — Anthropic: regex subset, `any`, strict budgets", () => {
  test("a pattern inside the regex subset stays a keyword; one with a lookahead or a backreference goes into the description", async () => {
    const decls = `schema Code { zip: string @pattern("^[0-9]{5}$")  word: string @pattern("^(?!x)[a-z]+$")  twice: string @pattern("^(a)\\\\1$") }\n`;
    const r = await run("anthropic", decls, "", `ask "Go" -> Code`, [{ json: { zip: "12345", word: "abc", twice: "aa" } }]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const schema = formatOf(r.requests);
    expect(schema.properties.zip).toEqual({ type: "string", pattern: "^[0-9]{5}$" });
    expect(schema.properties.word).toEqual({ type: "string", description: '{pattern: "^(?!x)[a-z]+$"}' });
    expect(schema.properties.twice.pattern).toBeUndefined();
    expect(schema.properties.twice.description).toContain("pattern");
  }, 30_000);

  test("an answer with a field of type `any` is rejected at start-up (the SDK's converter refuses `{}`); a tool input with one goes non-strict", async () => {
    const bad = await run("anthropic", `schema Blob { data: any }\n`, "", `ask "Go" -> Blob`, []);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("Schema 'Blob'");
    expect(bad.stderr).toContain("type `any`");
    expect(bad.requests).toHaveLength(0);
    const decls = `tool stash(data: any) -> Answer { side_effects: "none" }\n`;
    const ok = await run("anthropic", decls, "tools: [stash, text_stats]", `ask "Rate" -> Answer`, [{ json: { summary: "s", score: 1 } }], `export const lumaTools = { stash: () => ({ summary: "s", score: 1 }) };`);
    expect(ok.stderr).toBe("");
    const tools: Obj[] = ok.requests[0].body.tools;
    expect(tools.find((t) => t.name === "stash")!.strict).toBe(false);
    expect(tools.find((t) => t.name === "text_stats")!.strict).toBe(true);
  }, 30_000);

  test('"20 strict tools per request": of 22 tools the first 20 are strict, the others go non-strict', async () => {
    const names = Array.from({ length: 22 }, (_, i) => `t${i}`);
    const decls = names.map((n) => `tool ${n}(q: string) -> Answer { side_effects: "none" }`).join("\n") + "\n";
    const tools = `const h = () => ({ summary: "s", score: 1 });\nexport const lumaTools = { ${names.map((n) => `${n}: h`).join(", ")} };`;
    const r = await run("anthropic", decls, `tools: [${names.join(", ")}]`, `ask "Rate" -> Answer`, [{ json: { summary: "s", score: 1 } }], tools);
    expect(r.stderr).toBe("");
    const sent: Obj[] = r.requests[0].body.tools;
    expect(sent.map((t) => t.strict)).toEqual([...Array(20).fill(true), false, false]);
  }, 30_000);

  test('"24 optional parameters across strict schemas", the answer format counted first: a tool that would pass the budget goes non-strict', async () => {
    const fields = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}?: string`).join(", ");
    // 12 + 12 optional parameters fit exactly; with the final answer's (Answer: 1 optional field) they do not.
    const decls = `tool w1(${fields(12, "a")}) -> Answer { side_effects: "none" }\ntool w2(${fields(12, "b")}) -> Answer { side_effects: "none" }\n`;
    const tools = `const h = () => ({ summary: "s", score: 1 });\nexport const lumaTools = { w1: h, w2: h };`;
    const turns: FakeTurn[] = [{ toolCalls: [{ name: "text_stats", args: { text: "x" } }] }, { json: { summary: "s", score: 1 } }];
    const r = await run("anthropic", decls, "tools: [w1, w2, text_stats]", `ask "Rate" -> Answer`, turns, tools);
    expect(r.stderr).toBe("");
    const strictness = (q: { body: Obj }) => (q.body.tools as Obj[]).map((t) => [t.name, t.strict]);
    expect(r.requests.map((q) => q.body.output_config !== undefined)).toEqual([false, true]);
    expect(strictness(r.requests[0])).toEqual([["w1", true], ["w2", true], ["text_stats", true]]);
    expect(strictness(r.requests[1])).toEqual([["w1", true], ["w2", false], ["text_stats", true]]);
  }, 30_000);

  test("an answer that alone is over the optional-parameter budget is rejected at start-up", async () => {
    const decls = `schema Wide { ${Array.from({ length: 25 }, (_, i) => `f${i}?: string`).join("  ")} }\n`;
    const r = await run("anthropic", decls, "", `ask "Go" -> Wide`, []);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("25 optional");
    expect(r.stderr).toContain("E0615");
  }, 30_000);
});

const DOCS = `
schema Invoice { number: string }
schema Receipt { reference: string }
schema Document = Invoice | Receipt tagged by kind
tool file_doc(doc: Document) -> Answer { side_effects: "none" }
`;

describe("PROVIDERS §4.4 — Gemini: tag as a one-value enum, a description on every function", () => {
  test("the tagged-union tag goes as `enum: [tag]`, never `const`, in tool parameters and the answer; a tool without description gets one", async () => {
    const doc = { kind: "Invoice", number: "1" };
    const turns: FakeTurn[] = [{ toolCalls: [{ name: "file_doc", args: { doc } }] }, { json: { value: doc } }];
    const r = await run("gemini", DOCS, "tools: [file_doc, calculate]", `ask "Classify" -> Document`, turns, `export const lumaTools = { file_doc: () => ({ summary: "s", score: 1 }) };`);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const req = r.requests[0];
    for (const schema of [formatOf(r.requests), toolParameters(req, "file_doc")]) {
      const all = nodes(schema);
      expect(all.some((n) => "const" in n)).toBe(false);
      const tags = all.filter((n) => n.properties?.kind).map((n) => n.properties.kind);
      expect(tags.map((t) => t.enum)).toEqual([["Invoice"], ["Receipt"]]);
    }
    const decls: Obj[] = req.body.tools[0].functionDeclarations;
    expect(decls.every((d) => typeof d.description === "string" && d.description !== "")).toBe(true);
    expect(decls.find((d) => d.name === "file_doc")!.description).toBe("file_doc");
    expect(decls.find((d) => d.name === "calculate")!.description).toBe("Adds or multiplies two numbers");
  }, 30_000);
});

describe("docs/providers/strict-schemas.md — each documented limit, one at a time", () => {
  const obj = (properties: Obj, required = Object.keys(properties)) => ({ type: "object", additionalProperties: false, required, properties });
  const strings = (n: number, prefix = "p") => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: "string" }]));

  test("OpenAI: 5000 object properties pass, 5001 do not", () => {
    const at = (n: number) => obj({ a: obj(strings(n - 1 - 1)), b: { type: "string" } });
    expect(openAiStrictProblem(at(5000) as never)).toBeUndefined();
    expect(openAiStrictProblem(at(5001) as never)).toContain("5001 object properties in total (limit 5000)");
  });

  test("OpenAI: a string enum of more than 250 values may hold 15,000 characters, not more", () => {
    const values = (n: number, len: number) => Array.from({ length: n }, (_, i) => String(i).padStart(len, "x"));
    expect(openAiStrictProblem(obj({ e: { type: "string", enum: values(300, 50) } }) as never)).toBeUndefined();
    expect(openAiStrictProblem(obj({ e: { type: "string", enum: values(300, 51) } }) as never)).toContain("15300 characters (limit 15000)");
    // 250 values or fewer: only the total limits apply.
    expect(openAiStrictProblem(obj({ e: { type: "string", enum: values(250, 70) } }) as never)).toBeUndefined();
  });

  test("OpenAI: 120,000 characters of property names, definition names, enum and const values", () => {
    const long = (c: string) => c.repeat(60_001);
    expect(openAiStrictProblem(obj({ [long("a")]: { type: "string" } }) as never)).toBeUndefined();
    expect(openAiStrictProblem(obj({ [long("a")]: { type: "string" }, [long("b")]: { type: "string" } }) as never)).toContain("120002 characters");
  });

  test("OpenAI: a schema with `any` is not strict, so no strict limit applies to it", () => {
    let deep: Obj = obj({ x: {} });
    for (let i = 0; i < 12; i++) deep = obj({ next: deep });
    expect(openAiStrictProblem(deep as never)).toBeUndefined();
  });

  test("Anthropic's regex subset: quantifiers, classes, groups, anchors in; backreferences, lookaround, \\b and large ranges out", () => {
    for (const p of ["^[0-9]{5}$", "^(ab)+c?$", "\\d{2,4}", "^[A-Z][a-z]*\\s\\w+$", "a{0,100}"]) expect(inAnthropicRegexSubset(p)).toBe(true);
    for (const p of ["(a)\\1", "(?<n>a)\\k<n>", "(?=a)b", "(?!a)b", "(?<=a)b", "(?<!a)b", "\\bword\\b", "\\B", "a{0,101}", "a{500}"]) expect(inAnthropicRegexSubset(p)).toBe(false);
  });

  test("Anthropic budgets: union-typed parameters count (16 per request); non-strict tools cost nothing", () => {
    const union = (n: number, p: string) => obj(Object.fromEntries(Array.from({ length: n }, (_, i) => [`${p}${i}`, { anyOf: [{ type: "string" }, { type: "integer" }] }])));
    expect(strictCost(union(3, "u"))).toEqual({ optional: 0, union: 3 });
    const tools = [
      { name: "loose", strict: false, input_schema: union(30, "l") },
      { name: "a", strict: true, input_schema: union(10, "a") },
      { name: "b", strict: true, input_schema: union(7, "b") },
      { name: "c", strict: true, input_schema: union(6, "c") },
    ];
    expect(withinStrictBudget(tools, undefined).map((t) => t.strict)).toEqual([false, true, false, true]);
    // The input list is not changed: a later request starts from the same tools.
    expect(tools.map((t) => t.strict)).toEqual([false, true, true, true]);
  });
});

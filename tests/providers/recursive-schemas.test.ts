/**
 * Recursive schemas on the wire (wire notes §1.4, §3.4, §4.4), through the real
 * `dist/luma` against the fake provider: a comment tree as a tool's input and as the
 * `ask -> Comment` answer. Each provider gets the `$defs`/`$ref` form its strict mode
 * takes — OpenAI and Azure strict (definitions made strict too, bare `$ref`s), Gemini
 * `parametersJsonSchema`/`responseJsonSchema` (bare `$ref`s, optional fields out of
 * `required`), Anthropic only as a non-strict tool: a recursive `ask` target on Anthropic
 * is rejected at start-up naming the schema and the provider, before any request.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";
import { fakeProvider, KEYS, modelDecl, type ProviderKind } from "../ask/ask-harness";
import type { FakeProvider, FakeTurn } from "../support/fake-provider/fake-provider";

const SCHEMAS = `
schema Comment {
  author: string
  text: string
  score?: int @default(0)
  replies: Comment[] @desc("Answers")
  parent?: Comment @desc("The comment this one answers")
}
schema Stats { comments: int }
tool count_comments(thread: Comment) -> Stats { side_effects: "none" }
`;

const TOOLS = `
type C = { replies: C[] };
const count = (c: C): number => 1 + c.replies.reduce((n, r) => n + count(r), 0);
export const lumaTools = { count_comments: (input: { thread: C }) => ({ comments: count(input.thread) }) };
`;

const program = (kind: ProviderKind, target: string, print: string) => `${modelDecl(kind)}${SCHEMAS}
agent A {
  model: M
  tools: [count_comments]
  fn go() -> ${target} { ask "Build the thread as a tree; count it first." -> ${target} }
}
t = A.go()
${print}
`;

/** The program's tree; `nulls` adds what OpenAI strict mode sends for absent optional fields. */
function tree(nulls: boolean): unknown {
  const leaf: Record<string, unknown> = { author: "cy", text: "Deeper", replies: [] };
  if (nulls) Object.assign(leaf, { score: null, parent: null });
  return { author: "ada", text: "Root", score: 5, replies: [{ author: "bob", text: "Reply", score: 2, replies: [leaf], parent: { author: "ada", text: "Root", replies: [] } }] };
}

// The fake provider is the shared one of the ask harness (other files use it after this one): never stopped here.
let fake: FakeProvider;

async function run(kind: ProviderKind, source: string, turns: FakeTurn[]) {
  fake = await fakeProvider();
  fake.script(turns);
  const dir = mkdtempSync(join(tmpdir(), "luma-recursive-"));
  writeFileSync(join(dir, "main.luma"), source);
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  const p = Bun.spawn([ensureBinary(), join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")], {
    cwd: dir,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...KEYS[kind], LUMA_BASE_URL_M: fake.baseUrl(kind) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, exitCode, requests: fake.requests.map((r) => r.body) };
}

/** Every `$ref` node in a schema, with what it carries besides. */
function refNodes(s: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(s)) s.forEach((x) => refNodes(x, out));
  else if (s && typeof s === "object") {
    if ("$ref" in s) out.push(s as Record<string, unknown>);
    Object.values(s).forEach((x) => refNodes(x, out));
  }
  return out;
}

const REF = { $ref: "#/$defs/Comment" };
// `parent` is optional: the checker wants it checked before its field is read (E0303).
const PRINT = `p = t.replies[0].parent\nif p != null { print(t.replies[0].replies[0].author, t.replies[0].replies[0].score, p.author) }`;

describe("§1.4 OpenAI and Azure strict mode: $defs and local $ref", () => {
  for (const kind of ["openai", "azure"] as const) {
    test(`${kind}: tool parameters and the response format carry Comment in $defs, made strict; nulls are dropped through the $refs`, async () => {
      const answer = tree(true);
      const r = await run(kind, program(kind, "Comment", PRINT), [{ toolCalls: [{ name: "count_comments", args: { thread: answer } }] }, { json: answer }]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("cy 0 ada\n");
      expect(r.exitCode).toBe(0);
      const fn = r.requests[0].tools[0].function;
      expect(fn.strict).toBe(true);
      expect(fn.parameters.properties.thread).toEqual(REF);
      const def = fn.parameters.$defs.Comment;
      expect(def.required).toEqual(["author", "text", "score", "replies", "parent"]);
      expect(def.properties.replies).toEqual({ type: "array", description: "Answers", items: REF });
      // An annotated, optional $ref: nullable, its @desc kept beside a bare $ref.
      expect(def.properties.parent).toEqual({ anyOf: [{ anyOf: [REF], description: "The comment this one answers" }, { type: "null" }] });
      const format = r.requests[1].response_format.json_schema;
      expect([format.name, format.strict, format.schema.type]).toEqual(["Comment", true, "object"]);
      expect(format.schema.$defs.Comment).toEqual(def);
      for (const body of r.requests) expect(refNodes([body.tools, body.response_format]).every((n) => Object.keys(n).length === 1)).toBe(true);
    });
  }

  test("ask -> Comment[] is wrapped as {value: …} with the $defs kept at the document root", async () => {
    const r = await run("openai", program("openai", "Comment[]", "print(len(t), t[0].replies[0].author)"), [
      { toolCalls: [{ name: "count_comments", args: { thread: tree(true) } }] },
      { json: { value: [tree(true)] } },
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("1 bob\n");
    const schema = r.requests[1].response_format.json_schema.schema;
    expect(schema.properties.value).toEqual({ type: "array", items: REF });
    expect(Object.keys(schema.$defs)).toEqual(["Comment"]);
  });

  test("a recursive answer nested past 1000 levels is an invalid answer (exit 1), never a crash", async () => {
    let deep: unknown = { author: "z", text: "z", replies: [] };
    for (let i = 0; i < 5000; i++) deep = { author: "a", text: "t", replies: [deep] };
    const r = await run("openai", program("openai", "Comment", "print(t.author)"), [{ json: deep }]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^Error: \[ASK_OUTPUT_INVALID\] The answer of model 'M' to ask -> Comment was invalid: Comment is nested deeper than 1000 levels \(depth\) at (.*main\.luma:\d+:\d+)\n {2}--> \1\n/);
  });
});

describe("§4.4 Gemini: parametersJsonSchema and responseJsonSchema with $defs, bare $refs", () => {
  test("the schema goes as JSON Schema; a $ref never carries other keywords; optional fields stay out of required", async () => {
    const answer = tree(false);
    const r = await run("gemini", program("gemini", "Comment", PRINT), [{ toolCalls: [{ name: "count_comments", args: { thread: answer } }] }, { json: answer }]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("cy 0 ada\n");
    const params = r.requests[0].tools[0].functionDeclarations[0].parametersJsonSchema;
    expect(params.properties.thread).toEqual(REF);
    expect(params.$defs.Comment.required).toEqual(["author", "text", "replies"]);
    expect(params.$defs.Comment.properties.parent).toEqual({ anyOf: [REF], description: "The comment this one answers" });
    const response = r.requests[1].generationConfig.responseJsonSchema;
    expect(response.type).toBe("object");
    expect(response.$defs.Comment).toEqual(params.$defs.Comment);
    expect(refNodes(r.requests).every((n) => Object.keys(n).length === 1)).toBe(true);
  });
});

describe("§3.4 Anthropic: no recursion in strict mode", () => {
  test("a recursive tool input goes as a non-strict tool with its $defs, and is validated locally", async () => {
    const r = await run("anthropic", program("anthropic", "Stats", "print(t.comments)"), [
      { toolCalls: [{ name: "count_comments", args: { thread: tree(false) } }] },
      { json: { comments: 3 } },
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("3\n");
    const tool = r.requests[0].tools[0];
    expect(tool.strict).toBe(false);
    expect(tool.input_schema.properties.thread).toEqual(REF);
    expect(tool.input_schema.$defs.Comment.properties.replies.items).toEqual(REF);
    expect(r.requests[1].output_config.format.schema.$defs).toBeUndefined();
  });

  test("an ask for a recursive schema is a start-up error naming the schema, the provider and the ask (exit 2, no request)", async () => {
    const r = await run("anthropic", program("anthropic", "Comment[]", "print(len(t))"), [{ json: { value: [] } }]);
    expect(r.exitCode).toBe(2);
    expect(r.requests).toEqual([]);
    expect(r.stderr).toContain(
      "error[E0617]: Schema 'Comment' is recursive, and provider 'anthropic' (model 'M') cannot take a recursive schema as structured output: " +
        "agent 'A' asks for Comment[]. Use a model of a provider that can (openai, openai-compatible, azure, gemini, mcp), or a schema that does not refer to itself.",
    );
    expect(r.stderr).toMatch(/main\.luma:\d+:\d+/);
    expect(r.stdout).toBe("");
  });
});

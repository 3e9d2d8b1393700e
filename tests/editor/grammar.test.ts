/**
 * The VS Code extension's TextMate grammar (editors/vscode/syntaxes/luma.tmLanguage.json),
 * run by the engine VS Code itself uses (`vscode-textmate` + `vscode-oniguruma`): every
 * example tokenizes to its golden scope snapshot (tests/editor/scopes/, rewritten with
 * LUMA_UPDATE=1), and the constructs issue #17 names get their scopes.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as oniguruma from "vscode-oniguruma";
import * as textmate from "vscode-textmate";
import { REPO } from "../support/luma-binary";

const GRAMMAR = join(REPO, "editors/vscode/syntaxes/luma.tmLanguage.json");
const SNAPSHOTS = join(import.meta.dir, "scopes");
const UPDATE = process.env.LUMA_UPDATE === "1";

let grammar: textmate.IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(join(REPO, "node_modules/vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === "source.luma" ? textmate.parseRawGrammar(readFileSync(GRAMMAR, "utf8"), GRAMMAR) : null,
  });
  grammar = (await registry.loadGrammar("source.luma"))!;
});

/** Each token of each line: its text and its scopes (the root `source.luma` aside). */
function tokenize(text: string): { text: string; scopes: string[] }[][] {
  let stack = textmate.INITIAL;
  return text.split("\n").map((line) => {
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    return result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes.slice(1) }));
  });
}

const snapshot = (text: string): string =>
  tokenize(text)
    .map((tokens, i) => [`${i + 1}:`, ...tokens.filter((t) => t.text.trim() !== "").map((t) => `  ${JSON.stringify(t.text.trim())} ${t.scopes.join(" ")}`)].join("\n"))
    .join("\n") + "\n";

/** The scopes of the first token whose text is `text`. */
const scopesOf = (source: string, text: string): string[] =>
  tokenize(source).flat().find((t) => t.text.trim() === text.trim())?.scopes ?? [];

describe("TextMate grammar: golden scopes of every example", () => {
  const examples = readdirSync(join(REPO, "examples")).filter((f) => f.endsWith(".luma")).sort();
  test("there are examples", () => expect(examples.length).toBeGreaterThan(40));
  for (const name of examples) {
    test(name, () => {
      const actual = snapshot(readFileSync(join(REPO, "examples", name), "utf8"));
      const file = join(SNAPSHOTS, name.replace(/\.luma$/, ".scopes"));
      if (UPDATE) {
        mkdirSync(SNAPSHOTS, { recursive: true });
        writeFileSync(file, actual);
      }
      expect(existsSync(file)).toBe(true); // a new example needs its snapshot: LUMA_UPDATE=1, then review
      expect(actual).toBe(readFileSync(file, "utf8"));
    });
  }
});

describe("TextMate grammar: the constructs of issue #17", () => {
  test("keywords, declarations and their names", () => {
    const src = `agent Flow {\n  fn run(x: int) -> Answer {\n    if x > 1 { return ask "q" -> Answer using tool t } else { for i in xs { print(i) } }\n  }\n}\n`;
    expect(scopesOf(src, "agent")).toEqual(["storage.type.agent.luma"]);
    expect(scopesOf(src, "Flow")).toEqual(["entity.name.type.luma"]);
    expect(scopesOf(src, "run")).toContain("entity.name.function.luma");
    for (const kw of ["if", "return", "else", "for", "in"]) expect(scopesOf(src, kw)).toContain("keyword.control.luma");
    for (const kw of ["ask", "using"]) expect(scopesOf(src, kw)).toContain("keyword.other.luma");
  });

  test("`stream ask` (issue #26): `stream` is a keyword before `ask` only; a variable called stream stays a name", () => {
    expect(scopesOf(`fn r() -> string { stream ask "q" -> string }\n`, "stream")).toContain("keyword.other.luma");
    expect(scopesOf(`stream = 3\nprint(stream)\n`, "stream")).not.toContain("keyword.other.luma");
  });

  test("`luma eval` (issue #31): `eval … over …` and `score` are words there only; variables of those names stay names", () => {
    const src = `eval "routes" over "cases.jsonl" {\n  score "route" case.ok\n}\n`;
    for (const kw of ["eval", "over", "score"]) expect(scopesOf(src, kw)).toEqual(["keyword.other.eval.luma"]);
    expect(scopesOf(`score = 3\nprint(score)\neval = 1\n`, "score")).not.toContain("keyword.other.eval.luma");
    expect(scopesOf(`eval = 1\n`, "eval")).not.toContain("keyword.other.eval.luma");
  });

  test("strings with {interpolation}: the embedded code is code, escapes are escapes", () => {
    const src = `print("Hello, {user.name + "!"} \\{not code\\}")\n`;
    const tokens = tokenize(src).flat().map((t) => ({ ...t, text: t.text.trim() }));
    const name = tokens.find((t) => t.text === "name")!;
    expect(name.scopes).toContain("meta.interpolation.luma");
    expect(name.scopes[0]).toBe("string.quoted.double.luma");
    expect(tokens.find((t) => t.text === "+")!.scopes).toContain("keyword.operator.arithmetic.luma");
    expect(tokens.find((t) => t.text === "\\{")!.scopes).toContain("constant.character.escape.luma");
    expect(tokens.find((t) => t.text === "not code")!.scopes).toEqual(["string.quoted.double.luma"]);
    expect(name.scopes).toContain("variable.other.luma");
  });

  test("an object literal inside an interpolation does not end it early", () => {
    const tokens = tokenize(`x = "{f({ a: 1 })} tail"\n`).flat();
    expect(tokens.find((t) => t.text === " tail\"" || t.text === " tail")!.scopes).toEqual(["string.quoted.double.luma"]);
  });

  test("annotations, comments, numbers, types", () => {
    const src = `schema A {\n  score: int @range(0, 10) // why\n  f?: float @default(-1.5e3) /* b */\n  tags: string[]\n  kind: enum["a"]\n  next?: A\n}\n`;
    expect(scopesOf(src, "range")).toContain("storage.type.annotation.luma");
    expect(scopesOf(src, " why")).toContain("comment.line.double-slash.luma");
    expect(scopesOf(src, " b ")).toContain("comment.block.luma");
    expect(scopesOf(src, "-1.5e3")).toEqual(["constant.numeric.luma"]);
    expect(scopesOf(src, "10")).toEqual(["constant.numeric.luma"]);
    for (const t of ["int", "float", "string", "enum"]) expect(scopesOf(src, t)).toContain("support.type.primitive.luma");
    expect(scopesOf(src, "A")).toContain("entity.name.type.luma");
  });

  test("a block comment spanning lines stays a comment to its end", () => {
    const lines = tokenize(`/* one\nschema two\n*/ x = 1\n`);
    expect(lines[1][0].scopes).toEqual(["comment.block.luma"]);
    expect(lines[2].find((t) => t.text.trim() === "x")!.scopes).toEqual(["variable.other.luma"]);
  });
});

describe("TextMate grammar: an agent's parameters, its `system` interpolation and `when` (issue #25)", () => {
  const SUPPORT = `agent Support(user: User) {
  model: M
  system: "You help {user.name} \\{ on the {user.plan} plan, not {user.name + 1}."
  description: "Returns { id }"
  tools: [
    lookup_order,
    issue_refund when user.can_refund and user.plan == "pro",
  ]
  fn reply(t: Thread, text: string) -> string { stream ask text -> string in t }
}
schema After { when: string }
`;
  const tokens = () => tokenize(SUPPORT).flat().map((t) => ({ ...t, text: t.text.trim() }));

  test("`{param.path}` in `system` is interpolation, the path a name; `\\{` an escape; any other `{…}` text (E0266 at check)", () => {
    const line = tokenize(SUPPORT)[2].map((t) => ({ ...t, text: t.text.trim() }));
    const names = line.filter((t) => t.text === "name");
    expect(names[0].scopes).toEqual(["string.quoted.double.luma", "meta.interpolation.luma", "source.luma.embedded", "variable.other.luma"]);
    expect(line.find((t) => t.text === "plan")!.scopes).toContain("meta.interpolation.luma");
    expect(line.find((t) => t.text === "\\{")!.scopes).toContain("constant.character.escape.luma");
    // `{user.name + 1}` is not a field path: not coloured as code.
    expect(names.length).toBe(1);
    expect(line.some((t) => t.text.includes("+ 1}"))).toBe(true);
  });

  test("the agent's parameters are code; its other text keys keep their braces", () => {
    expect(scopesOf(SUPPORT, "(")).toEqual(["punctuation.section.parameters.begin.luma"]);
    expect(scopesOf(SUPPORT, "User")).toEqual(["entity.name.type.luma"]);
    const description = tokenize(SUPPORT)[3];
    expect(description.some((t) => t.scopes.includes("meta.interpolation.luma"))).toBe(false);
  });

  test("`when` in a multi-line `tools` list is a keyword and its condition code; a field called when stays a name", () => {
    const all = tokens();
    expect(all.find((t) => t.text === "when")!.scopes).toEqual(["keyword.control.conditional.luma"]);
    expect(all.find((t) => t.text === "can_refund")!.scopes).toEqual(["variable.other.luma"]);
    expect(all.find((t) => t.text === "and")!.scopes).toEqual(["keyword.operator.logical.luma"]);
    expect(all.find((t) => t.text === "==")!.scopes).toEqual(["keyword.operator.comparison.luma"]);
    const after = tokenize(SUPPORT)[10].map((t) => ({ ...t, text: t.text.trim() }));
    expect(after.find((t) => t.text === "when")!.scopes).toEqual(["variable.other.luma"]);
    expect(scopesOf(SUPPORT, "After")).toEqual(["entity.name.type.luma"]);
  });

  test("in an agent without parameters too: `when`, and `system` with an escaped brace", () => {
    const src = `agent Plain {\n  system: "Reply as \\{ text: string }"\n  tools: [a when 1 > 2]\n  history_limit: 40\n}\n`;
    expect(scopesOf(src, "when")).toEqual(["keyword.control.conditional.luma"]);
    expect(scopesOf(src, "\\{")).toContain("constant.character.escape.luma");
    expect(scopesOf(src, "history_limit")).toEqual(["variable.other.luma"]);
  });
});

describe("TextMate grammar: braces Luma never interpolates, and test files (issue #24 §4)", () => {
  const interpolated = (source: string) => tokenize(source).flat().some((t) => t.scopes.includes("meta.interpolation.luma"));

  test("a system prompt with one unbalanced `{` stays one string; the next declaration is code again", () => {
    const src = `model M { provider: "openai"  name: "m" }\nagent A {\n  model: M\n  system: "Reply as { text: string"\n  fn run() -> string { return ask "hi" -> string }\n}\nschema After { id: string }\n`;
    expect(interpolated(src)).toBe(false);
    expect(scopesOf(src, "After")).toEqual(["entity.name.type.luma"]);
    expect(scopesOf(src, "schema")).toEqual(["storage.type.schema.luma"]);
  });

  test("description: and system: text, annotation arguments, enum values and object keys keep their braces", () => {
    const cases = [
      `tool t(q: string) -> R {\n  description: "Returns { id }"\n}\n`,
      `schema S {\n  code: string @pattern("^[a-z]{3}$")\n}\n`,
      `schema S {\n  kind: enum["{a}", "b"]\n}\n`,
      `x = { "a{b}": 1 }\n`,
      `datasource D {\n  url: "postgres://{host}"\n}\n`,
    ];
    for (const src of cases) expect([src, interpolated(src)]).toEqual([src, false]);
  });

  test("strings in code still interpolate — object literal values and a method's strings included", () => {
    expect(interpolated(`x = { a: "v {y}" }\n`)).toBe(true);
    expect(interpolated(`agent A {\n  fn run(n: int) -> string {\n    o = {\n      a: "n is {n}"\n    }\n    return o.a\n  }\n}\n`)).toBe(true);
    expect(interpolated(`tool t({ id: "o-{n}" })\n`)).toBe(true);
  });

  test("test, assert, mock and replay are keywords where a test file uses them, names elsewhere", () => {
    const src = `test "adds" {\n  replay "c.jsonl"\n  mock M ["a"]\n  assert x == 1\n}\nassert = 2\n`;
    for (const word of ["test", "replay", "mock"]) expect(scopesOf(src, word)).toEqual(["keyword.other.test.luma"]);
    const lines = tokenize(src);
    expect(lines[3].find((t) => t.text.trim() === "assert")!.scopes).toEqual(["keyword.other.test.luma"]);
    expect(lines[5].find((t) => t.text.trim() === "assert")!.scopes).toEqual(["variable.other.luma"]);
  });
});

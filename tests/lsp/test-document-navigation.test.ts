/**
 * `luma lsp` navigation across a test file and its program (issue #18 / #17): in
 * `NAME.test.luma`, go to definition of a name declared in `NAME.luma` lands there (its
 * URI, the declaration's range), the hover reads as it does inside `NAME.luma`, and
 * references and rename of such a name span both files. `NAME.luma` is taken as the
 * analysis takes it: the editor's open text, unsaved edits included, else the file on
 * disk. The real binary over stdio, with real files, driven by the standard LSP client.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;

const PROGRAM = `schema Forecast {
  city: string @desc("The city asked about")
  temperature_c: float
}

tool get_weather(city: string) -> Forecast {
  side_effects: "none"
  description: "The weather in a city, now"
}

model Assistant {
  provider: "openai"
  name: "gpt-5-mini"
}

agent Planner {
  model: Assistant
  fn advise(city: string) -> string {
    return ask "What to wear in {city}?" -> string
  }
}

fn celsius(f: float) -> float {
  return (f - 32.0) / 1.8
}

print(Planner.advise("Rome"))
`;

const TESTS = `test "the forecast" {
  mock Assistant [{ answer: "a coat" }]
  forecast: Forecast = tool get_weather({ city: "Lisbon" })
  assert forecast.city == "Lisbon"
  assert Planner.advise("Oslo") != ""
  assert celsius(50.0) > 0.0
}
`;

type Pos = { line: number; character: number };
type Range = { start: Pos; end: Pos };

const dir = mkdtempSync(join(tmpdir(), "luma-lsp-pair-"));
const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
const PLAN = () => uriOf("plan.luma");
const PLAN_TESTS = () => uriOf("plan.test.luma");
let lsp: LspSession;
let version = 1;

/** The range of the `nth` `needle` in `text`, starting `delta` columns in and `length` long. */
function rangeOf(text: string, needle: string, length: number, nth = 0, delta = 0): Range {
  const start = positionOf(text, needle, nth, delta);
  return { start, end: { line: start.line, character: start.character + length } };
}

const request = (method: string, uri: string, position: Pos, extra: object = {}) =>
  lsp.conn.sendRequest(method, { textDocument: { uri }, position, ...extra }) as Promise<any>;
const definition = (uri: string, position: Pos) => request("textDocument/definition", uri, position);
const hover = async (uri: string, position: Pos): Promise<string | undefined> => (await request("textDocument/hover", uri, position))?.contents?.value;

async function openTests(text = TESTS): Promise<void> {
  const { diagnostics } = await lsp.open(PLAN_TESTS(), text, ++version);
  expect(diagnostics).toEqual([]);
}
const closeDoc = (uri: string) => lsp.conn.sendNotification("textDocument/didClose", { textDocument: { uri } });

beforeAll(async () => {
  writeFileSync(join(dir, "plan.luma"), PROGRAM);
  writeFileSync(join(dir, "plan.test.luma"), TESTS);
  lsp = await startLsp();
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

/** Each name the test file takes from plan.luma: where the test file uses it, and its declaration's name there. */
const USES: { what: string; use: Pos; declared: Range }[] = [
  { what: "an agent", use: positionOf(TESTS, "Planner.advise"), declared: rangeOf(PROGRAM, "agent Planner", "Planner".length, 0, 6) },
  { what: "a tool", use: positionOf(TESTS, "get_weather", 0, 2), declared: rangeOf(PROGRAM, "get_weather", "get_weather".length) },
  { what: "a schema", use: positionOf(TESTS, "Forecast", 0, 1), declared: rangeOf(PROGRAM, "schema Forecast", "Forecast".length, 0, 7) },
  { what: "a schema field", use: positionOf(TESTS, "forecast.city", 0, 10), declared: rangeOf(PROGRAM, "city: string", "city".length) },
  { what: "a model (in `mock`)", use: positionOf(TESTS, "mock Assistant", 0, 5), declared: rangeOf(PROGRAM, "model Assistant", "Assistant".length, 0, 6) },
  { what: "a top-level fn", use: positionOf(TESTS, "celsius"), declared: rangeOf(PROGRAM, "fn celsius", "celsius".length, 0, 3) },
  { what: "an agent method", use: positionOf(TESTS, "advise", 0, 1), declared: rangeOf(PROGRAM, "fn advise", "advise".length, 0, 3) },
];

describe("go to definition: a name NAME.test.luma takes from NAME.luma lands in NAME.luma", () => {
  for (const { what, use, declared } of USES) {
    test(`${what}: the Location is NAME.luma's URI and the declaration's name range (NAME.luma on disk, not open)`, async () => {
      await openTests();
      expect(await definition(PLAN_TESTS(), use)).toEqual({ uri: PLAN(), range: declared });
    }, LIMIT_MS);
  }

  test("a test's own variable still lands on its assignment in the test file (test blocks are indexed)", async () => {
    await openTests();
    const loc = await definition(PLAN_TESTS(), positionOf(TESTS, "forecast.city"));
    expect(loc).toEqual({ uri: PLAN_TESTS(), range: rangeOf(TESTS, "forecast:", "forecast".length) });
  }, LIMIT_MS);

  test("unsaved edits in NAME.luma are followed: open text, then each change, then the disk again once it is closed", async () => {
    await openTests();
    const use = positionOf(TESTS, "Planner.advise");
    // Opened with two lines more above the agent: the definition moves with the open text.
    const edited = `// notes\n// more notes\n${PROGRAM}`;
    await lsp.open(PLAN(), edited, ++version);
    expect(await definition(PLAN_TESTS(), use)).toEqual({ uri: PLAN(), range: rangeOf(edited, "agent Planner", 7, 0, 6) });
    // An incremental change deletes the first line, unsaved.
    await lsp.conn.sendNotification("textDocument/didChange", {
      textDocument: { uri: PLAN(), version: ++version },
      contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: "" }],
    });
    const changed = edited.slice("// notes\n".length);
    expect(await definition(PLAN_TESTS(), use)).toEqual({ uri: PLAN(), range: rangeOf(changed, "agent Planner", 7, 0, 6) });
    // Closed: the file on disk again.
    await closeDoc(PLAN());
    expect(await definition(PLAN_TESTS(), use)).toEqual({ uri: PLAN(), range: USES[0].declared });
  }, LIMIT_MS);

  test("NAME.luma open with a syntax error in one item: the names of the other items still land at their ranges", async () => {
    await openTests();
    const broken = PROGRAM.replace("fn celsius(f: float) -> float {", "fn celsius(f: float) -> float {{ ((");
    await lsp.open(PLAN(), broken, ++version);
    expect(await definition(PLAN_TESTS(), USES[0].use)).toEqual({ uri: PLAN(), range: USES[0].declared });
    expect(await hover(PLAN_TESTS(), USES[0].use)).toContain("agent Planner {");
    expect(await definition(PLAN_TESTS(), positionOf(TESTS, "celsius"))).toBeNull();
    await closeDoc(PLAN());
  }, LIMIT_MS);

  test("a test file with no NAME.luma: its own declarations resolve in it, an unknown name answers nothing", async () => {
    const alone = `schema Note {\n  text: string\n}\n\ntest "t" {\n  n: Note = { text: "x" }\n  assert n.text == "x"\n  assert Planner.advise("x") == ""\n}\n`;
    const uri = uriOf("alone.test.luma");
    await lsp.open(uri, alone, ++version);
    expect(await definition(uri, positionOf(alone, "Note", 1))).toEqual({ uri, range: rangeOf(alone, "schema Note", 4, 0, 7) });
    expect(await definition(uri, positionOf(alone, "n.text", 0, 2))).toEqual({ uri, range: rangeOf(alone, "text: string", 4) });
    expect(await definition(uri, positionOf(alone, "Planner"))).toBeNull();
    expect(await hover(uri, positionOf(alone, "Planner"))).not.toContain("agent Planner");
  }, LIMIT_MS);

  test("NAME.luma that is a folder, not a file: the test file is analysed alone, requests still answer", async () => {
    const sub = join(dir, "odd");
    mkdirSync(join(sub, "x.luma"), { recursive: true });
    const uri = pathToFileURL(join(sub, "x.test.luma")).href;
    await lsp.open(uri, TESTS, ++version);
    expect(await definition(uri, positionOf(TESTS, "Planner"))).toBeNull();
    expect(await definition(uri, positionOf(TESTS, "forecast.city"))).toEqual({ uri, range: rangeOf(TESTS, "forecast:", 8) });
  }, LIMIT_MS);
});

describe("hover: a name NAME.test.luma takes from NAME.luma reads as it does inside NAME.luma", () => {
  test("agent, tool (with its input JSON Schema), schema, field, model, fn, method: the same text as hovering the declaration in NAME.luma", async () => {
    await openTests();
    const fromTests: (string | undefined)[] = [];
    for (const { use } of USES) fromTests.push(await hover(PLAN_TESTS(), use));
    await lsp.open(PLAN(), PROGRAM, ++version);
    for (const [i, { what, declared }] of USES.entries()) {
      const inProgram = await hover(PLAN(), declared.start);
      expect(inProgram, what).toBeDefined();
      expect(fromTests[i], what).toBe(inProgram);
    }
    expect(fromTests[0]).toContain("agent Planner {");
    expect(fromTests[1]).toContain("tool get_weather(");
    expect(fromTests[1]).toContain("The weather in a city, now");
    expect(fromTests[1]).toContain("Input JSON Schema");
    expect(fromTests[3]).toContain("Forecast.city: string");
    expect(fromTests[3]).toContain("The city asked about");
    await closeDoc(PLAN());
  }, LIMIT_MS);

  test("an unsaved edit of a declaration in NAME.luma shows in the test file's hover", async () => {
    await openTests();
    await lsp.open(PLAN(), PROGRAM.replace("The weather in a city, now", "Edited, not saved"), ++version);
    const text = await hover(PLAN_TESTS(), USES[1].use);
    expect(text).toContain("Edited, not saved");
    expect(text).not.toContain("The weather in a city, now");
    await closeDoc(PLAN());
    expect(await hover(PLAN_TESTS(), USES[1].use)).toContain("The weather in a city, now");
  }, LIMIT_MS);
});

describe("references and rename of a name of NAME.luma span NAME.luma and NAME.test.luma", () => {
  const sorted = (locs: { uri: string; range: Range }[]) =>
    locs.map((l) => `${l.uri.endsWith(".test.luma") ? "tests" : "plan"} ${l.range.start.line}:${l.range.start.character}`).sort();

  test("from the test file: the declaration and every use, in both files", async () => {
    await openTests();
    const refs = await request("textDocument/references", PLAN_TESTS(), USES[0].use, { context: { includeDeclaration: true } });
    expect(sorted(refs)).toEqual(
      sorted([
        { uri: PLAN(), range: USES[0].declared },
        { uri: PLAN(), range: rangeOf(PROGRAM, "Planner.advise", 7) },
        { uri: PLAN_TESTS(), range: rangeOf(TESTS, "Planner", 7) },
      ]),
    );
    const without = await request("textDocument/references", PLAN_TESTS(), USES[0].use, { context: { includeDeclaration: false } });
    expect(sorted(without)).toEqual(sorted([{ uri: PLAN(), range: rangeOf(PROGRAM, "Planner.advise", 7) }, { uri: PLAN_TESTS(), range: rangeOf(TESTS, "Planner", 7) }]));
  }, LIMIT_MS);

  test("from NAME.luma, its test file on disk and not open: a field's uses in the tests are listed, and renamed", async () => {
    await closeDoc(PLAN_TESTS());
    await lsp.open(PLAN(), PROGRAM, ++version);
    const refs = await request("textDocument/references", PLAN(), USES[3].declared.start, { context: { includeDeclaration: true } });
    expect(sorted(refs)).toEqual(sorted([{ uri: PLAN(), range: USES[3].declared }, { uri: PLAN_TESTS(), range: rangeOf(TESTS, "city ==", 4) }]));
    // A rename there edits the test file too, so the tests keep checking.
    const renamed = await request("textDocument/rename", PLAN(), USES[3].declared.start, { newName: "town" });
    expect(renamed.changes[PLAN_TESTS()]).toEqual([{ range: rangeOf(TESTS, "city ==", 4), newText: "town" }]);
    expect(renamed.changes[PLAN()]).toEqual([{ range: USES[3].declared, newText: "town" }]);
    await closeDoc(PLAN());
  }, LIMIT_MS);

  test("a rename from the test file edits both files, and the renamed pair checks clean", async () => {
    await openTests();
    const result = await request("textDocument/rename", PLAN_TESTS(), USES[1].use, { newName: "weather_now" });
    expect(Object.keys(result.changes).sort()).toEqual([PLAN(), PLAN_TESTS()].sort());
    const apply = (text: string, edits: { range: Range }[]) => {
      let out = text;
      for (const e of [...edits].sort((x, y) => y.range.start.line - x.range.start.line || y.range.start.character - x.range.start.character)) {
        const lines = out.split("\n");
        const line = lines[e.range.start.line];
        lines[e.range.start.line] = line.slice(0, e.range.start.character) + "weather_now" + line.slice(e.range.end.character);
        out = lines.join("\n");
      }
      return out;
    };
    const program = apply(PROGRAM, result.changes[PLAN()]);
    const tests = apply(TESTS, result.changes[PLAN_TESTS()]);
    expect(program).toContain("tool weather_now(");
    expect(tests).toContain("tool weather_now(");
    expect(program).not.toContain("get_weather");
    expect(tests).not.toContain("get_weather");
    // Both renamed, unsaved: the test file still sees every name it uses.
    await lsp.open(PLAN(), program, ++version);
    await lsp.conn.sendNotification("textDocument/didChange", { textDocument: { uri: PLAN_TESTS(), version: ++version }, contentChanges: [{ text: tests }] });
    expect((await lsp.diagnostics(PLAN_TESTS(), version)).diagnostics).toEqual([]);
    await closeDoc(PLAN());
  }, LIMIT_MS);

  test("a test file's own variable is renamed in the test file only", async () => {
    await openTests();
    const result = await request("textDocument/rename", PLAN_TESTS(), positionOf(TESTS, "forecast.city"), { newName: "f" });
    expect(Object.keys(result.changes)).toEqual([PLAN_TESTS()]);
    expect(result.changes[PLAN_TESTS()]).toHaveLength(2);
  }, LIMIT_MS);
});

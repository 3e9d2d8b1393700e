/**
 * The fast parser's entry: `Program`, `TopItem` and what only `luma test` reads (grammar.ohm
 * § Program, § tests), and `fastParse`, which gives the AST the Ohm path would give, or
 * undefined for input it leaves to the Ohm path (see `fast-scanner.ts`).
 *
 * It reads the whole file in one pass: a hand-written recursive descent keeps no memo
 * table, so large sources need no cutting into pieces. The items are sorted into
 * declarations, statements, tests and the file's `replay` as `to-ast-declarations.ts`
 * sorts them; everything the Ohm path reports while converting (a second `replay`, a test
 * name with `{…}`) is declined instead — but a `{` in a string that opens no interpolation,
 * whose diagnostics it gives itself (`FastStop.diagnostics`).
 *
 * Where it declines while reading a top-level item (none parses there, or the item holds
 * what it leaves to the Ohm path: a nesting past the limit, an interpolation that does not
 * parse…), it says where every item began (`FastStop`): all before the last are complete
 * items it took, so the Ohm path, which must still find the error, need not match them
 * again (`ohm-parse.ts`).
 */
import { attachDocComments } from "../doc-comments";
import type { Diagnostic } from "../../diagnostics/diagnostic";
import type { Decl, EvalDecl, Expr, ImportDecl, ImportName, MockSetup, Program, ReplaySetup, Stmt, TestDecl, ToolStubSetup } from "../ast";
import { unclosedBrace } from "../string-literal";
import { DECLARATIONS } from "./fast-declarations";
import { parseExpr } from "./fast-expressions";
import { plainString } from "./fast-strings";
import { evalDecl } from "./fast-evals";
import {
  DECLINE, type FastState, type Shared, char, decline, ident, keyword, leadingWord, newState, recurse, sameLine, skip, span,
  unrecurse, work,
} from "./fast-scanner";
import { parseStmt } from "./fast-statements";

/** Work allowed per character of input: far above any program's, linear all the same. */
const WORK_PER_CHAR = 8;

type TopItem = { decl: Decl } | { stmt: Stmt } | { test: TestDecl } | { eval: EvalDecl } | { replay: ReplaySetup } | { import: ImportDecl };

/**
 * Where a parse declined while reading a top-level item: the offsets at which the items
 * began, in order (each after the blanks and comments before it), the last being the one
 * it declined — whatever the reason: what the Ohm path makes of that item is its own
 * business, only the items before it are vouched for. Not set where the parse failed in
 * some other way than DECLINE (a fault: nothing it read is vouched for then).
 */
export interface FastStop {
  itemStarts?: number[];
  /**
   * Where the program was read whole but holds a `{` in a string that opens no segment:
   * the Ohm path's diagnostics for it (one per brace, in source order), given directly.
   */
  diagnostics?: Diagnostic[];
}

/** The AST of `source`, exactly as the Ohm path builds it; undefined where it declines (see `stop`). */
export function fastParse(source: string, file: string, counter?: { work: number }, stop?: FastStop): Program | undefined {
  const shared: Shared = { depth: 0, peak: 0, rec: 0, work: 0, workLimit: WORK_PER_CHAR * source.length + 10_000 };
  const itemStarts: number[] = [];
  try {
    const program = parseProgram(newState(source, 0, file, shared), itemStarts);
    if (!program && stop) stop.itemStarts = itemStarts;
    if (program && shared.loneBraces) {
      // Declined as before for callers without `stop` (the differential tests' fast side).
      if (stop) stop.diagnostics = loneBraceErrors(program, shared.loneBraces, file);
      return undefined;
    }
    // `///` above a fn is its doc (doc-comments.ts), as the Ohm path sets it.
    if (program) attachDocComments(program, source);
    return program;
  } catch (e) {
    // DECLINE, or anything unforeseen (a stack overflow the bounds should prevent, a bug):
    // the Ohm path decides, so the worst a fault here costs is time. The tests assert that
    // no valid corpus program is declined, so a fault does not go unseen.
    if (e === DECLINE && stop) stop.itemStarts = itemStarts;
    return undefined;
  } finally {
    if (counter) counter.work += shared.work;
  }
}

/**
 * The Ohm path's error for each `{` that opens no segment in a string of `program` (strings
 * read in alternatives that were dropped are not in it), in source order, as the Ohm path
 * converts. The AST is walked with a stack: it may be thousands of levels deep.
 */
function loneBraceErrors(program: Program, loneBraces: WeakMap<object, number[]>, file: string): Diagnostic[] {
  const offsets: number[] = [];
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> | unknown[];
    const found = loneBraces.get(node);
    if (found) offsets.push(...found);
    for (const value of Array.isArray(node) ? node : Object.values(node)) {
      if (value !== null && typeof value === "object") stack.push(value);
    }
  }
  return offsets.sort((a, b) => a - b).map((at) => unclosedBrace(file, at));
}

/**
 * `Program = #bom? #shebang? (TopItem | stmtSep)*`, after leading spaces, then trailing ones;
 * undefined where something is left that no item takes (the start of each item tried is
 * pushed on `itemStarts`).
 */
function parseProgram(s: FastState, itemStarts: number[]): Program | undefined {
  const { src, file } = s;
  skip(s);
  if (src.charCodeAt(s.pos) === 0xfeff) s.pos++;
  if (src.startsWith("#!", s.pos)) {
    const eol = src.indexOf("\n", s.pos);
    s.pos = eol < 0 ? src.length : eol;
  }
  const decls: Decl[] = [];
  const body: Stmt[] = [];
  const tests: TestDecl[] = [];
  const evals: EvalDecl[] = [];
  const imports: ImportDecl[] = [];
  let replay: ReplaySetup | undefined;
  for (;;) {
    const item = topItem(s, itemStarts);
    if (!item) {
      if (char(s, 59)) continue;
      break;
    }
    if ("decl" in item) decls.push(item.decl);
    else if ("stmt" in item) body.push(item.stmt);
    else if ("test" in item) tests.push(item.test);
    else if ("eval" in item) evals.push(item.eval);
    else if ("import" in item) imports.push(item.import);
    else if (replay) decline(); // "a file names one cassette for its tests"
    else replay = item.replay;
  }
  skip(s);
  if (s.pos !== src.length) return undefined;
  const program: Program = { kind: "Program", file, decls, body, span: { file, start: 0, end: src.length } };
  if (tests.length > 0) program.tests = tests;
  if (evals.length > 0) program.evals = evals;
  if (replay) program.replay = replay;
  if (imports.length > 0) program.imports = imports;
  return program;
}

/** `TopItem = ImportLine | TestItem | EvalDecl | Decl | Stmt`, tried in that order. */
function topItem(s: FastState, itemStarts: number[]): TopItem | undefined {
  work(s);
  const save = s.pos;
  const first = leadingWord(s);
  const start = s.pos;
  itemStarts.push(start);
  if (first === "import") {
    const line = importLine(s, start);
    if (line) return { import: line };
  } else if (first === "test") {
    const test = testDecl(s, start);
    if (test) return { test };
  } else if (first === "eval") {
    const decl = evalDecl(s, start);
    if (decl) return { eval: decl };
  } else if (first === "replay") {
    const replay = replayLine(s, start);
    if (replay) return { replay };
  }
  for (const rule of DECLARATIONS.get(first) ?? []) {
    const decl = rule(s, start);
    if (decl) return { decl };
  }
  s.pos = save;
  const stmt = parseStmt(s);
  if (stmt) return { stmt };
  s.pos = save;
  return undefined;
}

/**
 * `ImportLine = kwImport "{" (ImportNames ","?)? "}" kwFrom string` with
 * `ImportNames = ImportName ("," ImportName)*`, `ImportName = ident (kwAs ident)?` (pos at `import`).
 */
function importLine(s: FastState, start: number): ImportDecl | undefined {
  s.pos = start + 6;
  if (!char(s, 123)) return undefined;
  const names: ImportName[] = [];
  for (;;) {
    const at = ident(s);
    if (at < 0) break;
    const item: ImportName = { name: s.src.slice(at, s.pos), nameSpan: span(s, at, s.pos) };
    const save = s.pos;
    if (keyword(s, "as") >= 0) {
      const alias = ident(s);
      if (alias < 0) s.pos = save;
      else {
        item.alias = s.src.slice(alias, s.pos);
        item.aliasSpan = span(s, alias, s.pos);
      }
    }
    names.push(item);
    if (!char(s, 44)) break;
  }
  if (!char(s, 125) || keyword(s, "from") < 0) return undefined;
  const path = plainString(s);
  if (!path) return undefined;
  return { kind: "Import", names, path: path.text, pathSpan: span(s, path.start, path.end), span: span(s, start, s.pos) };
}

/** `TestDecl = kwTest string TestBlock`, `TestBlock = "{" (TestSetup | Stmt | stmtSep)* "}"`. */
function testDecl(s: FastState, start: number): TestDecl | undefined {
  s.pos = start + 4;
  const name = plainString(s);
  if (!name || !char(s, 123)) return undefined;
  const nameSpan = span(s, name.start, name.end);
  recurse(s);
  const items: (Stmt | ReplaySetup | MockSetup | ToolStubSetup)[] = [];
  for (;;) {
    const item = testItem(s);
    if (item) items.push(item);
    else if (!char(s, 59)) break;
  }
  unrecurse(s);
  if (!char(s, 125)) return undefined;
  const test: TestDecl = { kind: "Test", name: name.text, body: [], mocks: [], span: span(s, start, s.pos), nameSpan };
  for (const item of items) {
    if (item.kind === "Replay") {
      if (test.replay) decline(); // "a test names one cassette"
      test.replay = item;
    } else if (item.kind === "Mock") test.mocks.push(item);
    else if (item.kind === "ToolStub") (test.stubs ??= []).push(item);
    else test.body.push(item);
  }
  return test;
}

/** `TestSetup | Stmt` inside a test block. */
function testItem(s: FastState): Stmt | ReplaySetup | MockSetup | ToolStubSetup | undefined {
  const save = s.pos;
  const first = leadingWord(s);
  const start = s.pos;
  const setup = first === "replay" ? replayLine(s, start) : first === "mock" ? (toolStubLine(s, start) ?? mockLine(s, start)) : undefined;
  if (setup) return setup;
  s.pos = save;
  return parseStmt(s);
}

/** `ReplayLine = kwReplay #sameLine string` (pos at the word `replay`). */
function replayLine(s: FastState, start: number): ReplaySetup | undefined {
  s.pos = start + 6;
  const path = sameLine(s) ? plainString(s) : undefined;
  if (!path) return undefined;
  return { kind: "Replay", path: path.text, span: span(s, start, s.pos) };
}

/** `ToolStubLine = kwMock #sameLine kwTool ident Expr` (pos at the word `mock`); undefined with pos kept. */
function toolStubLine(s: FastState, start: number): ToolStubSetup | undefined {
  s.pos = start + 4;
  const tool = sameLine(s) && keyword(s, "tool") >= 0 ? ident(s) : -1;
  if (tool >= 0) {
    const toolSpan = span(s, tool, s.pos);
    const toolName = s.src.slice(tool, s.pos);
    const answers = parseExpr(s);
    if (answers) return { kind: "ToolStub", tool: toolName, toolSpan, answers, span: span(s, start, s.pos) };
  }
  s.pos = start;
  return undefined;
}

/** `MockLine = kwMock #sameLine ident Expr` (pos at the word `mock`). */
function mockLine(s: FastState, start: number): MockSetup | undefined {
  s.pos = start + 4;
  const model = sameLine(s) ? ident(s) : -1;
  if (model < 0) return undefined;
  const modelSpan = span(s, model, s.pos);
  const modelName = s.src.slice(model, s.pos);
  const turns = parseExpr(s);
  if (!turns) return undefined;
  return { kind: "Mock", model: modelName, modelSpan, turns, span: span(s, start, s.pos) };
}

/**
 * Every diagnostic Luma reports carries a catalog code (issue #11): `luma check --format
 * json` never prints `"code": null`, and every start-up error names its `= code EXXXX`.
 *
 * Two halves. The sources: src/ is read with TypeScript's parser (syntax only, no type
 * check) and every call of `error(`/`warning(` from diagnostics/diagnostic.ts must pass an
 * object with a `code`, every `startupError(` a `catalogCode` — or diagnostics built right
 * there (checked by the first rule), or be one of the few wrappers listed below that
 * forward diagnostics made, and coded, elsewhere. A new uncoded diagnostic fails here
 * wherever it is written. The binary: each program that used to give `"code": null` gives
 * its code through the real `dist/luma`.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { catalogEntry } from "../../src/diagnostics/catalog";
import { parseCodes, PARSE_CODES } from "../../src/diagnostics/catalog/parse-codes";
import { parse } from "../../src/syntax/parse";
import { REPO, runLuma } from "../support/luma-binary";

const SRC = join(REPO, "src");

/**
 * `startupError(…)` calls whose diagnostics come from elsewhere, already coded: the
 * parser's and checker's (load-program), luma fmt's (format-source.ts codes its own), and
 * the agent context rule (each diagnostic it collects is E0616). Keyed "file: first
 * argument as written".
 */
const FORWARDING_WRAPPERS = new Set([
  "load/load-program.ts: `${file}: the program has syntax errors`",
  "load/load-program.ts: `${file}: ${count} error${count === 1 ? \"\" : \"s\"} found by the checker`",
  "load/load-program.ts: `${file}: ${count} import error${count === 1 ? \"\" : \"s\"}`",
  'cli/fmt-command.ts: "luma fmt: files left unformatted"',
  "runtime/tools/steps/agent-context-rules.ts: diagnostics[0].message",
]);

interface Call {
  at: string;
  callee: string;
  args: readonly ts.Expression[];
  file: ts.SourceFile;
}

/** Every call in src/ of one of `names`, imported from the diagnostics folder. */
function callsOf(names: readonly string[]): Call[] {
  const out: Call[] = [];
  for (const rel of readdirSync(SRC, { recursive: true }).map(String)) {
    if (!rel.endsWith(".ts")) continue;
    const text = readFileSync(join(SRC, rel), "utf8");
    const file = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
    const imported = importedFromDiagnostics(file);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.includes(node.expression.text) && imported.has(node.expression.text)) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        out.push({ at: `${rel}:${line + 1}`, callee: node.expression.text, args: node.arguments, file });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return out;
}

/** The names a file imports from `…/diagnostics/diagnostic` or `…/diagnostics/luma-error` (or, inside that folder, `./…`). */
function importedFromDiagnostics(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const s of file.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    if (!/(^|\/)(diagnostics\/)?(diagnostic|luma-error)$/.test(s.moduleSpecifier.text)) continue;
    const bindings = s.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) names.add(el.name.text);
  }
  return names;
}

/** The object an argument is, written in place or as a `const` of the same file. */
function objectOf(arg: ts.Expression | undefined, file: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  if (!arg) return undefined;
  if (ts.isObjectLiteralExpression(arg)) return arg;
  if (!ts.isIdentifier(arg)) return undefined;
  let found: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === arg.text && node.initializer) {
      if (ts.isObjectLiteralExpression(node.initializer)) found = node.initializer;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const propertyOf = (obj: ts.ObjectLiteralExpression | undefined, name: string): ts.ObjectLiteralElementLike | undefined =>
  obj?.properties.find((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === name);

/** `{ diagnostics: [error(…), …] }`: diagnostics built right there, each call checked by the error/warning rule. */
function buildsItsDiagnostics(obj: ts.ObjectLiteralExpression | undefined): boolean {
  const p = propertyOf(obj, "diagnostics");
  if (!p || !ts.isPropertyAssignment(p) || !ts.isArrayLiteralExpression(p.initializer)) return false;
  return p.initializer.elements.every((e) => ts.isCallExpression(e) && ts.isIdentifier(e.expression) && ["error", "warning"].includes(e.expression.text));
}

describe("every diagnostic has a code: the sources (issue #11)", () => {
  test("every `error(`/`warning(` diagnostic built in src/ passes a `code`", () => {
    const calls = callsOf(["error", "warning"]);
    expect(calls.length).toBeGreaterThan(10);
    const uncoded = calls.filter((c) => propertyOf(objectOf(c.args[2], c.file), "code") === undefined).map((c) => c.at);
    expect(uncoded).toEqual([]);
  });

  test("every `startupError(` passes a `catalogCode`, builds coded diagnostics, or is a listed forwarding wrapper", () => {
    const calls = callsOf(["startupError"]);
    expect(calls.length).toBeGreaterThan(20);
    const wrappers = new Set<string>();
    const uncoded = calls.filter((c) => {
      const extra = objectOf(c.args[1], c.file);
      if (propertyOf(extra, "catalogCode") || buildsItsDiagnostics(extra)) return false;
      const key = `${c.at.replace(/:\d+$/, "")}: ${c.args[0].getText(c.file)}`;
      if (FORWARDING_WRAPPERS.has(key)) return !wrappers.add(key);
      return true;
    });
    expect(uncoded.map((c) => c.at)).toEqual([]);
    // The list names only wrappers that still exist: none is kept past its call.
    expect([...FORWARDING_WRAPPERS].filter((w) => !wrappers.has(w))).toEqual([]);
  });

  test("each E01xx code's example yields that code from the parser (both parse paths decline to the same one)", () => {
    const examples = parseCodes.filter((e) => e.code !== PARSE_CODES.internalParser);
    const missing = examples.filter((e) => !parse(`${e.example}\n`, "example.luma").diagnostics.some((d) => d.code === e.code));
    expect(missing.map((e) => e.code)).toEqual([]);
  });
});

/** `luma check --format json` on a program: the diagnostics' messages and codes. */
function checkJson(source: string): { message: string; code: string | null }[] {
  const dir = mkdtempSync(join(tmpdir(), "luma-codes-"));
  const file = join(dir, "main.luma");
  writeFileSync(file, source);
  const r = runLuma(["check", "--format", "json", file], { cwd: dir });
  expect(r.exitCode).toBe(2);
  return (JSON.parse(r.stdout) as { diagnostics: { message: string; code: string | null }[] }).diagnostics;
}

describe("every diagnostic has a code: through dist/luma (issue #11)", () => {
  const cases: [rule: string, source: string, message: string, code: string][] = [
    [
      "a file names one cassette for its tests: this is its second `replay`",
      'replay "a.json"\nreplay "b.json"\nprint(1)\n',
      "a file names one cassette for its tests: this is its second `replay`",
      "E0111",
    ],
    [
      "a test names one cassette: this is its second `replay`",
      'test "t" {\n  replay "a.json"\n  replay "b.json"\n  assert 1 == 1\n}\n',
      "a test names one cassette: this is its second `replay`",
      "E0111",
    ],
    [
      "a test name is a plain string: it cannot hold {…}",
      'x = "q"\ntest "t {x}" {\n  assert 1 == 1\n}\n',
      "a test name is a plain string: it cannot hold {…}",
      "E0112",
    ],
    [
      "a cassette path is a plain string: it cannot hold {…}",
      'x = "q"\ntest "t" {\n  replay "{x}.json"\n  assert 1 == 1\n}\n',
      "a cassette path is a plain string: it cannot hold {…}",
      "E0112",
    ],
    ['Unclosed "{" in string interpolation', 'x = "a { b"\n', 'Unclosed "{" in string interpolation (write \\{ for a literal brace)', "E0107"],
    ["… in string interpolation", 'x = "a {1 +} b"\n', "Expected an expression in string interpolation", "E0107"],
  ];
  for (const [rule, source, message, code] of cases) {
    test(`"${rule}" has code ${code}, its message byte for byte`, () => {
      const diagnostics = checkJson(source);
      expect(diagnostics.map((d) => d.message)).toEqual([message]);
      expect(diagnostics.map((d) => d.code)).toEqual([code]);
      expect(catalogEntry(code)).toBeDefined();
    });
  }

  test("\"Schema 'X' is recursive, and provider 'anthropic' …\" is start-up error E0617 (exit 2), its message byte for byte", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-codes-"));
    const file = join(dir, "main.luma");
    writeFileSync(
      file,
      'model M { provider: "anthropic"  name: "claude-sonnet-4-5" }\n' +
        "schema Comment {\n  text: string\n  replies: Comment[]\n}\n" +
        'agent A {\n  model: M\n  fn go() -> Comment { ask "tree" -> Comment }\n}\n' +
        "t = A.go()\nprint(t.text)\n",
    );
    const r = runLuma([file], { cwd: dir, env: { ANTHROPIC_API_KEY: "sk-test-not-sent" } });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toMatch(
      new RegExp(
        `main\\.luma:8:24: error\\[E0617\\]: ${"Schema 'Comment' is recursive, and provider 'anthropic' (model 'M') cannot take a recursive schema as structured output: agent 'A' asks for Comment. Use a model of a provider that can (openai, openai-compatible, azure, gemini, mcp), or a schema that does not refer to itself.".replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
      ),
    );
    expect(r.stderr).not.toContain("sk-test-not-sent");
  });
});

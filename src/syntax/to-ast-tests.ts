/**
 * CST → AST for what only `luma test` reads: `test "name" { … }` blocks, `replay "…"` (in a
 * test or once at the top level of a file), `mock Model [turns]` and `mock tool name [answers]`
 * inside a test, and the
 * `assert` statement (a statement like any other: it may stand in any block).
 *
 * A test block's setup lines (`replay`, `mock`) are split from its statements by the
 * converted node's `kind`, the way an agent's entries are split from its methods.
 */
import type * as ohm from "ohm-js";
import type { Expr, ImportDecl, ImportName, MockSetup, ReplaySetup, Span, Stmt, TestDecl, ToolStubSetup } from "./ast";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import { type Diagnostic, error } from "../diagnostics/diagnostic";
import { parseContext, spanOf, toAst } from "./parse-context";
import { interpolatedString } from "./string-literal";

type Node = ohm.Node;

/** A file's second top-level `replay`: found while converting a piece, or when joining pieces (`ohm-parse.ts`). */
export const secondFileReplay = (span: Span): Diagnostic =>
  error("a file names one cassette for its tests: this is its second `replay`", span, { code: PARSE_CODES.secondReplay });

/** The text of a string literal written without `{…}`; a diagnostic (and "") otherwise. */
export function plainString(node: Node, what: string): string {
  const str = interpolatedString(node) as Extract<Expr, { kind: "Str" }>;
  if (str.parts.every((p) => typeof p === "string")) return str.parts.join("");
  parseContext().diagnostics.push(error(`${what} is a plain string: it cannot hold {…}`, spanOf(node), { code: PARSE_CODES.interpolatedPlainString }));
  return "";
}

export const testActions: ohm.ActionDict<unknown> = {
  TestDecl(_kw: Node, name: Node, block: Node): TestDecl {
    const test: TestDecl = { kind: "Test", name: plainString(name, "a test name"), body: [], mocks: [], span: spanOf(this), nameSpan: spanOf(name) };
    for (const item of toAst(block) as (Stmt | ReplaySetup | MockSetup | ToolStubSetup)[]) {
      if (item.kind === "Replay") {
        if (test.replay) {
          parseContext().diagnostics.push(
            error("a test names one cassette: this is its second `replay`", item.span, { code: PARSE_CODES.secondReplay }),
          );
        }
        test.replay = item;
      } else if (item.kind === "Mock") test.mocks.push(item);
      else if (item.kind === "ToolStub") (test.stubs ??= []).push(item);
      else test.body.push(item);
    }
    return test;
  },
  TestBlock(_open: Node, items: Node, _close: Node): unknown[] {
    return items.children.filter((c) => c.ctorName !== "stmtSep").map(toAst);
  },
  ReplayLine(_kw: Node, _sameLine: Node, path: Node): ReplaySetup {
    return { kind: "Replay", path: plainString(path, "a cassette path"), span: spanOf(this) };
  },
  // `import { … } from "…"` sits here beside `replay`: both are contextual top-level lines.
  ImportLine(_kw: Node, _open: Node, names: Node, _comma: Node, _close: Node, _from: Node, path: Node): ImportDecl {
    return { kind: "Import", names: names.children.flatMap((n) => toAst(n) as ImportName[]), path: plainString(path, "an import path"), pathSpan: spanOf(path), span: spanOf(this) };
  },
  ImportNames(first: Node, _commas: Node, rest: Node): ImportName[] {
    return [first, ...rest.children].map((n) => toAst(n) as ImportName);
  },
  ImportName(name: Node, _as: Node, alias: Node): ImportName {
    const item: ImportName = { name: name.sourceString, nameSpan: spanOf(name) };
    if (alias.numChildren > 0) {
      item.alias = alias.child(0).sourceString;
      item.aliasSpan = spanOf(alias.child(0));
    }
    return item;
  },
  MockLine(_kw: Node, _sameLine: Node, model: Node, turns: Node): MockSetup {
    return { kind: "Mock", model: model.sourceString, modelSpan: spanOf(model), turns: toAst(turns), span: spanOf(this) };
  },
  ToolStubLine(_kw: Node, _sameLine: Node, _tool: Node, tool: Node, answers: Node): ToolStubSetup {
    return { kind: "ToolStub", tool: tool.sourceString, toolSpan: spanOf(tool), answers: toAst(answers), span: spanOf(this) };
  },
  AssertStmt(_kw: Node, _sameLine: Node, cond: Node, _comma: Node, message: Node): Stmt {
    const stmt: Stmt = { kind: "Assert", cond: toAst(cond), span: spanOf(this) };
    if (message.numChildren > 0) stmt.message = toAst(message.child(0));
    return stmt;
  },
};

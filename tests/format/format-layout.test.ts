/**
 * The canonical layout of `luma fmt` (issue #17 item 3), rule by rule through
 * `formatSource` — the function the language server's document formatting calls.
 */
import { describe, expect, test } from "bun:test";
import { formatSource } from "../../src/format/format-source";
import { UnprintableNode } from "../../src/format/print-context";
import { printProgram } from "../../src/format/print-program";
import { parse } from "../../src/syntax/parse";

const fmt = (text: string): string => {
  const result = formatSource(text, "t.luma");
  if (result.diagnostics) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return result.text;
};

describe("one canonical layout", () => {
  test("one entry per line in declaration blocks; `;` and blanks between entries go", () => {
    expect(fmt(`schema Note { id: int  title: string; done?: bool @default(false) }\n`)).toBe(
      `schema Note {\n  id: int\n  title: string\n  done?: bool @default(false)\n}\n`,
    );
    expect(fmt(`datasource Shop { url: "sqlite::memory:" }\ndatasource Empty {}\n`)).toBe(
      `datasource Shop {\n  url: "sqlite::memory:"\n}\ndatasource Empty {}\n`,
    );
  });

  test("a tool keeps its options and `needs` in source order; parameters one a line when written so", () => {
    const source = `schema R { ok: bool }\ntool t(\n  a: int,\n  b: string @length(1, 5)\n) -> R { side_effects: "none"; needs db: R\n  retry: { max: 3, backoff: "exponential" } }\n`;
    expect(fmt(source)).toBe(
      `schema R {\n  ok: bool\n}\ntool t(\n  a: int,\n  b: string @length(1, 5),\n) -> R {\n  side_effects: "none"\n  needs db: R\n  retry: { max: 3, backoff: "exponential" }\n}\n`,
    );
    expect(fmt(`tool t(a:int,b:string)->R{}\n`)).toBe(`tool t(a: int, b: string) -> R {}\n`);
  });

  test("two-space indentation, one statement a line, `} else if` and `} catch e {` on the brace's line", () => {
    expect(fmt(`fn f(x: int) -> int {\nif x > 1 { return 1 } else { if x < 0 { return 2 } else { y = 1; return y } }\ntry { g() } catch e { print(e.message) }\nreturn 0\n}\n`)).toBe(
      `fn f(x: int) -> int {\n  if x > 1 {\n    return 1\n  } else if x < 0 {\n    return 2\n  } else {\n    y = 1\n    return y\n  }\n  try {\n    g()\n  } catch e {\n    print(e.message)\n  }\n  return 0\n}\n`,
    );
  });

  test("spacing: around binary operators, after commas and colons, `{ a: 1 }` with inner spaces", () => {
    expect(fmt(`x={a:1,b:[1,2,3]}\nprint(x.a+1,x[ "b" ],tool t({q:1}))\n`)).toBe(
      `x = { a: 1, b: [1, 2, 3] }\nprint(x.a + 1, x["b"], tool t({ q: 1 }))\n`,
    );
  });

  test("a list or object written over lines stays one item a line, with trailing commas", () => {
    expect(fmt(`x = {\n  a: 1, b: [\n 1,\n 2]\n}\n`)).toBe(`x = {\n  a: 1,\n  b: [\n    1,\n    2,\n  ],\n}\n`);
  });

  test("aligned nothing that churns: a trailing comment is one space after its line", () => {
    expect(fmt(`x = 1          // one\nlonger_name = 2 // two\n`)).toBe(`x = 1 // one\nlonger_name = 2 // two\n`);
  });

  test("at most one empty line between items, none at a block's start or the file's end", () => {
    expect(fmt(`\n\nx = 1\n\n\n\ny = 2\nfn f() {\n\n  z = 3\n\n}\n\n\n`)).toBe(`x = 1\n\ny = 2\nfn f() {\n  z = 3\n}\n`);
  });

  test("parentheses: the ones precedence needs, and those the source put around an operator expression", () => {
    expect(fmt(`a = (x + 1) * 2\nb = x - (y - 1)\nc = not (x == 1)\nd = (not x) == y\ne = ((x)) + (y)\nf = (x * 2) + 1\n`)).toBe(
      `a = (x + 1) * 2\nb = x - (y - 1)\nc = not (x == 1)\nd = (not x) == y\ne = x + y\nf = (x * 2) + 1\n`,
    );
    expect(fmt(`g = (ask "q" -> R).a\nh = -(x * 2) + - 1 - -1\n`)).toBe(`g = (ask "q" -> R).a\nh = -(x * 2) + - 1 - -1\n`);
  });

  test("leaf tokens are copied: string escapes, interpolations, number spellings, quoted keys", () => {
    const source = `s = "a\\tb \\{lit\\} {x + 1} \\"q\\""\nn = [1.50, 1e3, -0]\no = { "x-y": 1 }\n`;
    expect(fmt(source)).toBe(source);
  });

  test("a `#!` line and a byte order mark stay first", () => {
    expect(fmt(`#!/usr/bin/env luma\nprint( 1 )\n`)).toBe(`#!/usr/bin/env luma\nprint(1)\n`);
    expect(fmt(`\uFEFFprint( 1 )\n`)).toBe(`\uFEFFprint(1)\n`);
  });
});

describe("comments kept where they were", () => {
  test("leading, trailing, inside blocks, before a closing brace, and at the end of the file", () => {
    const source = `// head\n\nschema S { // on the brace\n  // before a\n  a: int /* after a */\n  // last in S\n} // after S\nfn f() {\n  // only a comment\n}\nprint(1, /* mid */ 2)\n// tail\n/* block\n   comment */\n`;
    expect(fmt(source)).toBe(
      `// head\n\nschema S { // on the brace\n  // before a\n  a: int /* after a */\n  // last in S\n} // after S\nfn f() {\n  // only a comment\n}\nprint(1, 2) /* mid */\n// tail\n/* block\n   comment */\n`,
    );
  });

  test("a comment on a statement's line stays with it, not with the statement before it on that line", () => {
    expect(fmt(`x = 1; y = 2 // about y\n`)).toBe(`x = 1\ny = 2 // about y\n`);
  });

  test("comments between list items and parameters stay on their items", () => {
    expect(fmt(`tool t(\n  a: int, // first\n  // before b\n  b: string\n) -> R {}\nx = [\n  1, // one\n  // two next\n  2\n]\n`)).toBe(
      `tool t(\n  a: int, // first\n  // before b\n  b: string,\n) -> R {}\nx = [\n  1, // one\n  // two next\n  2,\n]\n`,
    );
  });
});

describe("idempotent and safe", () => {
  test("fmt(fmt(x)) == fmt(x) on a file that uses every construct", () => {
    const source = `schema U = A | B tagged by kind\nmodel M { provider: "openai" name: "m" }\nagent A { model: M\n fn run(x: int) -> any { for i in [1,2] { print(i) }\n v = ask "hi {x}" -> U using tool t\n return } }\nquery q(id: int) -> U[] { source: Db  sql: "select 1" }\ncommand c() -> U { source: Db sql: "x" }\nx: int = 1\n`;
    const once = fmt(source);
    expect(fmt(once)).toBe(once);
  });

  test("ask … in t (issue #26 §1) keeps its thread, after `using tool`, with stream too", () => {
    const source = `agent A { model: M\n fn run(t: Thread) -> string { r = ask "hi"  ->  string   in   t\n s = stream ask r -> string using tool x in thread()\n return s } }\n`;
    const once = fmt(source);
    expect(once).toContain(`r = ask "hi" -> string in t\n`);
    expect(once).toContain(`s = stream ask r -> string using tool x in thread()\n`);
    expect(fmt(once)).toBe(once);
  });

  test("a file that does not parse is not formatted: its diagnostic names line and column", () => {
    const result = formatSource(`x = (1 +\n`, "bad.luma");
    expect(result.text).toBeUndefined();
    expect(result.diagnostics?.[0].span?.file).toBe("bad.luma");
  });

  test("pathological inputs: deep nesting at the limit and brace-heavy strings format and stay the same program", () => {
    const deep = `x = ${"(".repeat(45)}1${")".repeat(45)} + ${"[".repeat(45)}${"]".repeat(45)}\n`;
    expect(fmt(deep)).toBe(`x = 1 + ${"[".repeat(45)}${"]".repeat(45)}\n`);
    const braces = `schema S {\n  a: int @desc("${"{".repeat(90)}")\n}\n`;
    expect(fmt(braces)).toBe(braces);
    const many = Array.from({ length: 300 }, (_, i) => `v${i} = ${i} // c${i}`).join("\n") + "\n";
    expect(fmt(many)).toBe(many);
  });

  test("a node kind the printer has no layout for fails loudly, naming the kind (a new statement must get a layout)", () => {
    const program = parse(`x = 1\n`, "t.luma").program!;
    const span = program.body[0].span;
    program.body.push({ kind: "Teleport", cond: { kind: "Bool", value: true, span }, body: [], span } as never);
    expect(() => printProgram(program, "x = 1\n", [])).toThrow(UnprintableNode);
    expect(() => printProgram(program, "x = 1\n", [])).toThrow("luma fmt has no layout for a 'Teleport' node");
  });
});

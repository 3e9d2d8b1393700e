import { describe, expect, test } from "bun:test";
import { bin, call, exprShape, name, num, parseError, parseOk, shape, str } from "./parse-helpers";

const KEYWORDS = (
  "schema tool agent model fn ask if else for in return try catch using tagged by needs " +
  "datasource query command true false null enum and or not"
).split(" ");

describe("§1 Lexical structure", () => {
  test("a first line starting with #! is ignored", () => {
    const source = "#!/usr/bin/env luma\nx = 1\n";
    const program = parseOk(source);
    expect(shape(program.body)).toEqual([{ kind: "Assign", name: "x", value: num(1) }]);
    // Offsets stay those of the original text.
    expect(program.body[0].span.start).toBe(source.indexOf("x = 1"));
  });

  test("#! anywhere but the first line is an error", () => {
    expect(parseError("x = 1\n#!/usr/bin/env luma\n").at).toBe("2:1");
  });

  test("comments: // to end of line, /* … */ block", () => {
    const program = parseOk("// leading\nx = 1 // trailing\n/* block\n spanning */ y = /* inline */ 2\n");
    expect(shape(program.body)).toEqual([
      { kind: "Assign", name: "x", value: num(1) },
      { kind: "Assign", name: "y", value: num(2) },
    ]);
  });

  test("identifiers: [A-Za-z_][A-Za-z0-9_]*", () => {
    expect(exprShape("_a1 + Abc_9")).toEqual(bin("+", name("_a1"), name("Abc_9")));
  });

  test.each(KEYWORDS)("keyword %s cannot be assigned to", (keyword) => {
    expect(parseError(`${keyword} = 1`).message).toMatch(/^Expected /);
  });

  test.each(KEYWORDS.filter((k) => !["true", "false", "null", "not", "ask", "tool", "query", "command"].includes(k)))(
    "keyword %s is not a name in an expression",
    (keyword) => {
      expect(parseError(`x = ${keyword}`).message).toMatch(/^Expected /);
    },
  );

  test.each(KEYWORDS)("a name that only starts with keyword %s is a name", (keyword) => {
    expect(exprShape(`${keyword}_x`)).toEqual(name(`${keyword}_x`));
    expect(exprShape(`${keyword}1`)).toEqual(name(`${keyword}1`));
  });

  test.each([
    ["42", 42],
    ["3.5", 3.5],
    ["-1e3", -1000],
    ["2E-2", 0.02],
    ["0", 0],
    ["1.5e+2", 150],
  ])("number literal %s", (text, value) => {
    expect(exprShape(text)).toEqual(num(value));
  });

  test("true, false, null", () => {
    expect(exprShape("[true, false, null]")).toEqual({
      kind: "Array",
      items: [
        { kind: "Bool", value: true },
        { kind: "Bool", value: false },
        { kind: "Null" },
      ],
    });
  });

  test('string escapes \\" \\\\ \\n \\t \\{ \\} are decoded', () => {
    expect(exprShape(String.raw`"a\"b\\c\nd\te\{f\}g"`)).toEqual(str('a"b\\c\nd\te{f}g'));
  });

  test("an unknown escape is an error at the escape", () => {
    const { message, at } = parseError(String.raw`x = "ab\qc"`);
    expect(at).toBe("1:9");
    expect(message).toBe(String.raw`Expected an escape: \" \\ \n \t \{ or \}`);
  });

  test("the empty string has no parts", () => {
    expect(exprShape('""')).toEqual(str());
  });

  test("strings may span lines", () => {
    expect(exprShape('"line one\nline two"')).toEqual(str("line one\nline two"));
  });

  test("interpolation {expr} splits a string into text and expressions", () => {
    expect(exprShape('"a {b} c {d.e + 1}"')).toEqual(
      str("a ", name("b"), " c ", bin("+", { kind: "Member", object: name("d"), property: "e" }, num(1))),
    );
  });

  test("interpolated expressions may hold strings, objects and nested interpolation", () => {
    expect(exprShape('"x{f("}", { k: "{y}" })}!"')).toEqual(
      str(
        "x",
        call(name("f"), str("}"), { kind: "Object", entries: [{ key: "k", value: str(name("y")) }] }),
        "!",
      ),
    );
  });

  test("arrays [a, b] with a trailing comma", () => {
    expect(exprShape("[1, a,\n]")).toEqual({ kind: "Array", items: [num(1), name("a")] });
    expect(exprShape("[]")).toEqual({ kind: "Array", items: [] });
  });

  test('objects { key: expr, "quoted key": expr } with a trailing comma', () => {
    expect(exprShape('{ key: 1, "quoted key": a, }')).toEqual({
      kind: "Object",
      entries: [
        { key: "key", value: num(1) },
        { key: "quoted key", value: name("a") },
      ],
    });
    expect(exprShape("{}")).toEqual({ kind: "Object", entries: [] });
  });

  test("object keys and .member names may be keywords", () => {
    expect(exprShape("{ model: 1, if: 2 }.model")).toEqual({
      kind: "Member",
      object: {
        kind: "Object",
        entries: [
          { key: "model", value: num(1) },
          { key: "if", value: num(2) },
        ],
      },
      property: "model",
    });
  });

  test("entries in declaration blocks: whitespace separates, commas and semicolons are ignored", () => {
    const program = parseOk('model M { provider: "openai", name: "m"; temperature: 0\n max_tokens: 5 }');
    const model = program.decls[0];
    expect(model.kind === "Model" && model.entries.map((e) => e.key)).toEqual([
      "provider",
      "name",
      "temperature",
      "max_tokens",
    ]);
  });

  test("newline rule: `f` then `(x)` on the next line are two statements", () => {
    const program = parseOk("f\n(x)");
    expect(shape(program.body)).toEqual([
      { kind: "ExprStmt", expr: name("f") },
      { kind: "ExprStmt", expr: name("x") },
    ]);
  });

  test("newline rule: `a` then `[1]` on the next line are two statements", () => {
    const program = parseOk("x = a\n[1]");
    expect(shape(program.body)).toEqual([
      { kind: "Assign", name: "x", value: name("a") },
      { kind: "ExprStmt", expr: { kind: "Array", items: [num(1)] } },
    ]);
  });

  test("calls and indexes on the same line may have blanks before ( and [", () => {
    expect(exprShape("f (1) [0]")).toEqual({ kind: "Index", object: call(name("f"), num(1)), index: num(0) });
  });

  test("member access may continue on the next line", () => {
    expect(exprShape("a\n  .b")).toEqual({ kind: "Member", object: name("a"), property: "b" });
  });
});

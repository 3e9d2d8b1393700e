import { describe, expect, test } from "bun:test";
import { parse } from "../../src/syntax/parse";
import { FILE, parseError } from "./parse-helpers";

describe("§1 Syntax errors: one diagnostic at the failure, with a readable message", () => {
  test.each([
    ["schema X { 5 }", "1:12", 'Expected "}" or a field'],
    ["schema X { a: int 5 }", "1:19", 'Expected "}", a field or an annotation'],
    ["agent A {\n  model: X\n", "3:1", 'Expected "}", a key or "fn"'],
    ["x = )", "1:5", "Expected an expression"],
    ["x = 1 +", "1:8", "Expected an expression"],
    ["x = f(1 2)", "1:9", 'Expected ")" or ","'],
    ["fn f( { }", "1:7", 'Expected ")" or a field'],
    ["if x { y = 1 ", "1:14", 'Expected a statement or "}"'],
    ["tool t(a: int) -> {\n}", "1:19", "Expected a type"],
    ["tool t(a: int) -> T { retries: }", "1:32", "Expected a value"],
    ['model M { provider "openai" }', "1:20", 'Expected ":"'],
    ["schema D = A | B tagged kind", "1:25", 'Expected "by"'],
    ["5 5 )", "1:5", "Expected a declaration, a statement or the end of the file"],
    ["x = 1\ny = \"abc\nz = 2", "2:5", "Unterminated string"],
    ["x = 1 /* never closed", "1:7", "Unterminated block comment"],
  ])("%j", (source, at, message) => {
    expect(parseError(source)).toMatchObject({ at, message });
  });

  test("the diagnostic is a zero-width error span at the failure, in the given file", () => {
    const result = parse("x = )", FILE);
    expect(result).toEqual({
      diagnostics: [{ severity: "error", message: "Expected an expression", span: { file: FILE, start: 4, end: 4 }, code: "E0101" }],
    });
  });

  test("an error inside string interpolation points into the string", () => {
    expect(parseError('x = "a {b +} c"')).toMatchObject({ at: "1:12", message: "Expected an expression in string interpolation" });
    expect(parseError('#!/bin/luma\nx = "{}"')).toMatchObject({ at: "2:7", message: "Expected an expression in string interpolation" });
  });

  test("an unclosed { in an interpolating string is an error; \\{ is the literal brace", () => {
    expect(parseError('x = "open { brace"')).toMatchObject({
      at: "1:11",
      message: 'Unclosed "{" in string interpolation (write \\{ for a literal brace)',
    });
  });

  test("bad input never throws", () => {
    for (const source of ["", "}", "{{{{", '"', "#!", "/*", "@", "x = [", "\u0000", "schema", "ask", "f(".repeat(50)]) {
      expect(() => parse(source, FILE)).not.toThrow();
    }
    expect(parse("", FILE).program?.body).toEqual([]);
  });

  test("pathologically deep nesting becomes a diagnostic, not a crash", () => {
    const deep = `x = ${"(".repeat(20000)}1${")".repeat(20000)}`;
    const result = parse(deep, FILE);
    expect(result.program !== undefined || result.diagnostics.length === 1).toBe(true);
  });
});

import { describe, expect, test } from "bun:test";
import { bin, call, exprShape, member, name, num, str, unary } from "./parse-helpers";

const [a, b, c] = [name("a"), name("b"), name("c")];

describe("§7 Expressions: precedence or < and < not < comparison < + - < * / % < unary - < postfix", () => {
  test.each([
    ["a or b and c", bin("or", a, bin("and", b, c))],
    ["a and b or c", bin("or", bin("and", a, b), c)],
    ["not a and b", bin("and", unary("not", a), b)],
    ["not a == b", unary("not", bin("==", a, b))],
    ["not not a", unary("not", unary("not", a))],
    ["a == b + c", bin("==", a, bin("+", b, c))],
    ["a < b == c", bin("==", bin("<", a, b), c)],
    ["a + b * c", bin("+", a, bin("*", b, c))],
    ["a * b + c", bin("+", bin("*", a, b), c)],
    ["a - b - c", bin("-", bin("-", a, b), c)],
    ["a / b % c", bin("%", bin("/", a, b), c)],
    ["-a * b", bin("*", unary("-", a), b)],
    ["- a.b", unary("-", member(a, "b"))],
    ["-f(1)", unary("-", call(name("f"), num(1)))],
    ["a * -2", bin("*", a, num(-2))],
    ["a-1", bin("-", a, num(1))],
    ["a - -1", bin("-", a, num(-1))],
    ["(a + b) * c", bin("*", bin("+", a, b), c)],
    ["a != b and c >= 1 or not c <= 2", bin("or", bin("and", bin("!=", a, b), bin(">=", c, num(1))), unary("not", bin("<=", c, num(2))))],
    ["a > b", bin(">", a, b)],
  ])("%s", (source, expected) => {
    expect(exprShape(source)).toEqual(expected);
  });
});

describe("§7 Expressions: postfix and primaries", () => {
  test.each([
    ["f(a, b)", call(name("f"), a, b)],
    ["f(a, b,)", call(name("f"), a, b)],
    ["f()", call(name("f"))],
    ["Flow.run(x)", call(member(name("Flow"), "run"), name("x"))],
    ["a[0].b(c)[1]", { kind: "Index", object: call(member({ kind: "Index", object: a, index: num(0) }, "b"), c), index: num(1) }],
    ["f(a)(b)", call(call(name("f"), a), b)],
  ])("%s", (source, expected) => {
    expect(exprShape(source)).toEqual(expected);
  });

  test("tool name(expr)", () => {
    expect(exprShape("tool calculate({ a: 2, b: 3 }).result")).toEqual(
      member(
        {
          kind: "ToolCall",
          tool: "calculate",
          arg: { kind: "Object", entries: [{ key: "a", value: num(2) }, { key: "b", value: num(3) }] },
        },
        "result",
      ),
    );
    expect(exprShape("tool t(input)")).toEqual({ kind: "ToolCall", tool: "t", arg: name("input") });
  });

  test("ask expr -> Type, with and without using tool", () => {
    expect(exprShape('ask "Close: {text}" -> Answer using tool calculate')).toEqual({
      kind: "Ask",
      prompt: str("Close: ", name("text")),
      target: { kind: "NamedType", name: "Answer" },
      usingTool: { name: "calculate" },
    });
    expect(exprShape('ask "a" + b -> string[]')).toEqual({
      kind: "Ask",
      prompt: bin("+", str("a"), b),
      target: { kind: "ArrayType", element: { kind: "PrimType", name: "string" } },
    });
  });

  test("query name(expr) and command name(expr)", () => {
    expect(exprShape("query top_customers({ limit: 3 })")).toEqual({
      kind: "DbCall",
      op: "query",
      name: "top_customers",
      arg: { kind: "Object", entries: [{ key: "limit", value: num(3) }] },
    });
    expect(exprShape("command add_customer(c)")).toEqual({ kind: "DbCall", op: "command", name: "add_customer", arg: c });
  });
});

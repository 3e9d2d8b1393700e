import { describe, expect, test } from "bun:test";
import { bin, call, member, name, num, parseError, parseOk, shape, str } from "./parse-helpers";

const body = (source: string): unknown => shape(parseOk(source).body);

describe("§7 Statements", () => {
  test.each([
    ["x = 1", [{ kind: "Assign", name: "x", value: num(1) }]],
    [
      "x: Result = tool calc({ a: 1 })",
      [
        {
          kind: "Assign",
          name: "x",
          type: { kind: "NamedType", name: "Result" },
          value: { kind: "ToolCall", tool: "calc", arg: { kind: "Object", entries: [{ key: "a", value: num(1) }] } },
        },
      ],
    ],
    ["n: int[] = []", [{ kind: "Assign", name: "n", type: { kind: "ArrayType", element: { kind: "PrimType", name: "int" } }, value: { kind: "Array", items: [] } }]],
    ["print(x)", [{ kind: "ExprStmt", expr: call(name("print"), name("x")) }]],
    ["a == b", [{ kind: "ExprStmt", expr: bin("==", name("a"), name("b")) }]],
  ])("assignment, typed assignment, expression statement: %s", (source, expected) => {
    expect(body(source)).toEqual(expected);
  });

  test("if / else if / else: else if is an If as the only statement of else", () => {
    expect(body("if a { x = 1 } else if b { x = 2 } else { x = 3 }")).toEqual([
      {
        kind: "If",
        cond: name("a"),
        then: [{ kind: "Assign", name: "x", value: num(1) }],
        else: [
          {
            kind: "If",
            cond: name("b"),
            then: [{ kind: "Assign", name: "x", value: num(2) }],
            else: [{ kind: "Assign", name: "x", value: num(3) }],
          },
        ],
      },
    ]);
  });

  test("if without else has no else branch", () => {
    const [stmt] = parseOk("if stats.words > 3 {\n}").body;
    expect(shape(stmt)).toEqual({ kind: "If", cond: bin(">", member(name("stats"), "words"), num(3)), then: [] });
    expect("else" in stmt).toBe(false);
  });

  test("for item in list { }", () => {
    expect(body("for item in rows.items {\n print(item)\n}")).toEqual([
      {
        kind: "For",
        name: "item",
        iterable: member(name("rows"), "items"),
        body: [{ kind: "ExprStmt", expr: call(name("print"), name("item")) }],
      },
    ]);
  });

  test("return expr and bare return", () => {
    const program = parseOk("fn f() { return 1 + 2 }\nfn g() { return }\nfn h() {\n return\n}");
    expect(program.decls.map((d) => (d.kind === "Fn" ? shape(d.body) : null))).toEqual([
      [{ kind: "Return", value: bin("+", num(1), num(2)) }],
      [{ kind: "Return" }],
      [{ kind: "Return" }],
    ]);
  });

  test("`;` separates statements on one line, at top level and in blocks; it is optional", () => {
    expect(shape(parseOk("x = 1; y = 2;\nprint(x);;").body)).toEqual(
      shape(parseOk("x = 1\ny = 2\nprint(x)").body),
    );
    const program = parseOk("fn f() { a = 1; return a }");
    const fn = program.decls[0];
    expect(fn.kind === "Fn" && shape(fn.body)).toEqual([
      { kind: "Assign", name: "a", value: num(1) },
      { kind: "Return", value: name("a") },
    ]);
  });

  test("a return value must start on the return's line", () => {
    const program = parseOk("fn f() {\n  return\n  cleanup()\n}");
    const fn = program.decls[0];
    expect(fn.kind === "Fn" && shape(fn.body)).toEqual([
      { kind: "Return" },
      { kind: "ExprStmt", expr: call(name("cleanup")) },
    ]);
  });

  test("try { } catch e { }", () => {
    expect(body("try {\n rows = query top({})\n} catch e {\n print(e.code)\n}")).toEqual([
      {
        kind: "Try",
        body: [{ kind: "Assign", name: "rows", value: { kind: "DbCall", op: "query", name: "top", arg: { kind: "Object", entries: [] } } }],
        errName: "e",
        handler: [{ kind: "ExprStmt", expr: call(name("print"), member(name("e"), "code")) }],
      },
    ]);
  });

  test("statements on consecutive lines are never glued", () => {
    expect(body('x = "a"\n(y)\nz = [1]\n[2]\nprint(x)')).toEqual([
      { kind: "Assign", name: "x", value: str("a") },
      { kind: "ExprStmt", expr: name("y") },
      { kind: "Assign", name: "z", value: { kind: "Array", items: [num(1)] } },
      { kind: "ExprStmt", expr: { kind: "Array", items: [num(2)] } },
      { kind: "ExprStmt", expr: call(name("print"), name("x")) },
    ]);
  });

  test("several statements may share a line", () => {
    expect(body("a = 1 b = 2")).toEqual([
      { kind: "Assign", name: "a", value: num(1) },
      { kind: "Assign", name: "b", value: num(2) },
    ]);
  });

  test("an assignment needs a name, or a name's fields and items, on the left", () => {
    expect(parseError("f(x) = 1").at).toBe("1:6");
    expect(parseError("a.b() = 1").at).toBe("1:7");
    expect(parseError("1 = 2").at).toBe("1:3");
  });
});

describe("§7 Statements: while, break, continue, assignment into fields and items", () => {
  test("while cond { } with break and continue in its body", () => {
    expect(body("while a { break; continue }")).toEqual([
      { kind: "While", cond: name("a"), body: [{ kind: "Break" }, { kind: "Continue" }] },
    ]);
  });
  test("order.status = v and xs[0] = v: the target is a Member or an Index rooted at a name", () => {
    expect(body('order.status = "sent"\nxs[0] = 9\na.b[i].c = 1')).toEqual([
      { kind: "AssignInto", target: member(name("order"), "status"), value: str("sent") },
      { kind: "AssignInto", target: { kind: "Index", object: name("xs"), index: num(0) }, value: num(9) },
      {
        kind: "AssignInto",
        target: member({ kind: "Index", object: member(name("a"), "b"), index: name("i") }, "c"),
        value: num(1),
      },
    ]);
  });
  test("an item's `[` starts on the target's line (the newline rule of calls and indexes)", () => {
    expect(parseError("xs\n[0] = 9").at).toBe("2:5");
  });
  test("'while break continue' are keywords", () => {
    for (const kw of ["while", "break", "continue"]) expect(parseError(`${kw} = 1`).at).toBeDefined();
    expect(body("breaking = 1\nwhilst = 2")).toEqual([
      { kind: "Assign", name: "breaking", value: num(1) },
      { kind: "Assign", name: "whilst", value: num(2) },
    ]);
  });
});

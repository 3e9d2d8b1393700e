import { describe, expect, test } from "bun:test";
import type { Decl } from "../../src/syntax/ast";
import { name, num, parseError, parseOk, shape } from "./parse-helpers";

const decl = (source: string): unknown => shape(parseOk(source).decls[0] as Decl);
const typeOf = (text: string): unknown => {
  const d = parseOk(`schema S { f: ${text} }`).decls[0];
  if (d.kind !== "Schema") throw new Error(d.kind);
  return shape(d.fields[0].type);
};
const prim = (n: string) => ({ kind: "PrimType", name: n });

describe("§2 Types", () => {
  test.each([
    ["string", prim("string")],
    ["int", prim("int")],
    ["float", prim("float")],
    ["bool", prim("bool")],
    ["any", prim("any")],
    ['enum["a", "b"]', { kind: "EnumType", values: ["a", "b"] }],
    ['enum["a",]', { kind: "EnumType", values: ["a"] }],
    ["int[]", { kind: "ArrayType", element: prim("int") }],
    ["int[][]", { kind: "ArrayType", element: { kind: "ArrayType", element: prim("int") } }],
    ['enum["x"][]', { kind: "ArrayType", element: { kind: "EnumType", values: ["x"] } }],
    ["Customer", { kind: "NamedType", name: "Customer" }],
    ["integer", { kind: "NamedType", name: "integer" }],
    ["Customer[]", { kind: "ArrayType", element: { kind: "NamedType", name: "Customer" } }],
  ])("type %s", (text, expected) => {
    expect(typeOf(text)).toEqual(expected);
  });
});

describe("§3 Schemas", () => {
  test("name: Type annotations*; name?: is optional", () => {
    expect(
      decl(`schema Answer {
        summary: string @desc("One sentence") @length(1, 280)
        tags?: string[] @items(0, 5)
        lang?: enum["en", "tr"] @default("en")
      }`),
    ).toEqual({
      kind: "Schema",
      name: "Answer",
      fields: [
        {
          kind: "Field",
          name: "summary",
          optional: false,
          type: prim("string"),
          annotations: [
            { kind: "Annotation", name: "desc", args: [{ value: "One sentence" }] },
            { kind: "Annotation", name: "length", args: [{ value: 1 }, { value: 280 }] },
          ],
        },
        {
          kind: "Field",
          name: "tags",
          optional: true,
          type: { kind: "ArrayType", element: prim("string") },
          annotations: [{ kind: "Annotation", name: "items", args: [{ value: 0 }, { value: 5 }] }],
        },
        {
          kind: "Field",
          name: "lang",
          optional: true,
          type: { kind: "EnumType", values: ["en", "tr"] },
          annotations: [{ kind: "Annotation", name: "default", args: [{ value: "en" }] }],
        },
      ],
    });
  });

  test("fields on one line, separated by blanks, commas or semicolons", () => {
    const d = parseOk("schema E { code: string  message: string, retryable: bool; details?: any }").decls[0];
    expect(d.kind === "Schema" && d.fields.map((f) => `${f.name}${f.optional ? "?" : ""}`)).toEqual([
      "code",
      "message",
      "retryable",
      "details?",
    ]);
  });

  test("field names may be keywords", () => {
    const d = parseOk("schema K { model: string  query: int  in: bool }").decls[0];
    expect(d.kind === "Schema" && d.fields.map((f) => f.name)).toEqual(["model", "query", "in"]);
  });

  test("annotation arguments are constants: negative numbers, lists, objects, true/false/null", () => {
    const d = parseOk('schema A { x: int @range(-10, 1e3) @default([1, "two", { k: null, "q k": [true] }]) @flag }')
      .decls[0];
    if (d.kind !== "Schema") throw new Error(d.kind);
    expect(shape(d.fields[0].annotations)).toEqual([
      { kind: "Annotation", name: "range", args: [{ value: -10 }, { value: 1000 }] },
      { kind: "Annotation", name: "default", args: [{ value: [1, "two", { k: null, "q k": [true] }] }] },
      { kind: "Annotation", name: "flag", args: [] },
    ]);
  });

  test("constant strings keep braces literally (no interpolation)", () => {
    const d = parseOk(String.raw`schema A { x: string @desc("JSON like {a: 1} and \{b\}") }`).decls[0];
    expect(d.kind === "Schema" && d.fields[0].annotations[0].args[0].value).toBe("JSON like {a: 1} and {b}");
  });

  test("a non-constant annotation argument is an error", () => {
    expect(parseError("schema A { x: int @default(y) }")).toMatchObject({ message: 'Expected a value or ")"', at: "1:28" });
  });

  test("tagged union: schema Document = Invoice | Receipt tagged by kind", () => {
    expect(decl("schema Document = Invoice | Receipt tagged by kind")).toEqual({
      kind: "Union",
      name: "Document",
      members: [{ name: "Invoice" }, { name: "Receipt" }],
      tag: "kind",
    });
  });
});

describe("§4 Tools", () => {
  test("params with annotations and a trailing comma, return type, options", () => {
    expect(
      decl(`tool calculate(
        a: float @range(0, 1000000),
        operation: enum["add", "multiply"] @desc("Operation to perform"),
        limit?: int @default(10),
      ) -> CalcResult {
        side_effects: "none"
        cache: true
        retries: 3
        idempotency_key: input.request_id
        error: ToolError
      }`),
    ).toEqual({
      kind: "Tool",
      name: "calculate",
      params: [
        {
          kind: "Field",
          name: "a",
          optional: false,
          type: prim("float"),
          annotations: [{ kind: "Annotation", name: "range", args: [{ value: 0 }, { value: 1000000 }] }],
        },
        {
          kind: "Field",
          name: "operation",
          optional: false,
          type: { kind: "EnumType", values: ["add", "multiply"] },
          annotations: [{ kind: "Annotation", name: "desc", args: [{ value: "Operation to perform" }] }],
        },
        {
          kind: "Field",
          name: "limit",
          optional: true,
          type: prim("int"),
          annotations: [{ kind: "Annotation", name: "default", args: [{ value: 10 }] }],
        },
      ],
      returns: { kind: "NamedType", name: "CalcResult" },
      options: [
        { kind: "Entry", key: "side_effects", value: { kind: "Lit", value: "none" } },
        { kind: "Entry", key: "cache", value: { kind: "Lit", value: true } },
        { kind: "Entry", key: "retries", value: { kind: "Lit", value: 3 } },
        { kind: "Entry", key: "idempotency_key", value: { kind: "Path", parts: ["input", "request_id"] } },
        { kind: "Entry", key: "error", value: { kind: "Path", parts: ["ToolError"] } },
      ],
      needs: [],
    });
  });

  test("an empty body and no params", () => {
    expect(decl("tool ping() -> Pong {}")).toEqual({
      kind: "Tool",
      name: "ping",
      params: [],
      returns: { kind: "NamedType", name: "Pong" },
      options: [],
      needs: [],
    });
  });

  test("needs <name>: <Type> is repeatable and separate from the options", () => {
    const d = parseOk("tool t(x: int) -> R {\n  needs db: Database\n  side_effects: \"write\"\n  needs cfg: Config[]\n}").decls[0];
    if (d.kind !== "Tool") throw new Error(d.kind);
    expect(shape(d.needs)).toEqual([
      { kind: "Needs", name: "db", type: { kind: "NamedType", name: "Database" } },
      { kind: "Needs", name: "cfg", type: { kind: "ArrayType", element: { kind: "NamedType", name: "Config" } } },
    ]);
    expect(d.options.map((o) => o.key)).toEqual(["side_effects"]);
  });

  test("a key named needs is an ordinary option", () => {
    const d = parseOk("tool t() -> R { needs: 1 }").decls[0];
    expect(d.kind === "Tool" && shape(d.options)).toEqual([
      { kind: "Entry", key: "needs", value: { kind: "Lit", value: 1 } },
    ]);
  });

  test("a tool body holds no code", () => {
    expect(parseError('tool t() -> R { x = 1 }').message).toBe('Expected ":"');
  });
});

describe("§5 Models", () => {
  test("model Name { key: value }", () => {
    expect(decl('model GPT54Mini {\n provider: "openai"\n temperature: 0\n max_tokens: 2048\n}')).toEqual({
      kind: "Model",
      name: "GPT54Mini",
      entries: [
        { kind: "Entry", key: "provider", value: { kind: "Lit", value: "openai" } },
        { kind: "Entry", key: "temperature", value: { kind: "Lit", value: 0 } },
        { kind: "Entry", key: "max_tokens", value: { kind: "Lit", value: 2048 } },
      ],
    });
  });

  test("config values: lists, nested objects, null, negative numbers, quoted keys", () => {
    const d = parseOk('model M { a: [x, "y", [1]]  b: { c: 1, "d e": null }  f: -2.5 }').decls[0];
    expect(d.kind === "Model" && shape(d.entries)).toEqual([
      {
        kind: "Entry",
        key: "a",
        value: {
          kind: "List",
          items: [
            { kind: "Path", parts: ["x"] },
            { kind: "Lit", value: "y" },
            { kind: "List", items: [{ kind: "Lit", value: 1 }] },
          ],
        },
      },
      {
        kind: "Entry",
        key: "b",
        value: {
          kind: "Obj",
          entries: [
            { kind: "Entry", key: "c", value: { kind: "Lit", value: 1 } },
            { kind: "Entry", key: "d e", value: { kind: "Lit", value: null } },
          ],
        },
      },
      { kind: "Entry", key: "f", value: { kind: "Lit", value: -2.5 } },
    ]);
  });
});

describe("§6 Agents", () => {
  test("entries (keyword keys included) and fn methods", () => {
    expect(
      decl(`agent A {
        model: GPT54Mini
        tools: [text_stats, calculate]
        tool_rate_limit: 2
        fn run() -> FinalResult { ask "go" -> FinalResult }
        fn helper(x: int) { return x }
      }`),
    ).toEqual({
      kind: "Agent",
      name: "A",
      entries: [
        { kind: "Entry", key: "model", value: { kind: "Path", parts: ["GPT54Mini"] } },
        {
          kind: "Entry",
          key: "tools",
          value: { kind: "List", items: [{ kind: "Path", parts: ["text_stats"] }, { kind: "Path", parts: ["calculate"] }] },
        },
        { kind: "Entry", key: "tool_rate_limit", value: { kind: "Lit", value: 2 } },
      ],
      methods: [
        {
          kind: "Fn",
          name: "run",
          params: [],
          returns: { kind: "NamedType", name: "FinalResult" },
          body: [
            {
              kind: "ExprStmt",
              expr: { kind: "Ask", prompt: { kind: "Str", parts: ["go"] }, target: { kind: "NamedType", name: "FinalResult" } },
            },
          ],
        },
        {
          kind: "Fn",
          name: "helper",
          params: [{ kind: "Field", name: "x", optional: false, type: prim("int"), annotations: [] }],
          body: [{ kind: "Return", value: name("x") }],
        },
      ],
    });
  });
});

describe("§7 Top-level functions", () => {
  test("fn name(params) -> Type { stmts }, return type optional", () => {
    const program = parseOk("fn add(a: int, b: int,) -> int { return a + b }\nfn log(m: string) { print(m) }");
    expect(shape(program.decls)).toEqual([
      {
        kind: "Fn",
        name: "add",
        params: [
          { kind: "Field", name: "a", optional: false, type: prim("int"), annotations: [] },
          { kind: "Field", name: "b", optional: false, type: prim("int"), annotations: [] },
        ],
        returns: prim("int"),
        body: [{ kind: "Return", value: { kind: "Binary", op: "+", left: name("a"), right: name("b") } }],
      },
      {
        kind: "Fn",
        name: "log",
        params: [{ kind: "Field", name: "m", optional: false, type: prim("string"), annotations: [] }],
        body: [{ kind: "ExprStmt", expr: { kind: "Call", callee: name("print"), args: [name("m")] } }],
      },
    ]);
    expect("returns" in (program.decls[1] as object)).toBe(false);
  });
});

describe("§12 datasource / query / command", () => {
  test("datasource Name { entries }", () => {
    expect(decl("datasource Warehouse {}")).toEqual({ kind: "Datasource", name: "Warehouse", entries: [] });
    expect(decl('datasource W { url_env: "DATABASE_URL" }')).toEqual({
      kind: "Datasource",
      name: "W",
      entries: [{ kind: "Entry", key: "url_env", value: { kind: "Lit", value: "DATABASE_URL" } }],
    });
  });

  test("query name(params) -> T[] { source: X sql: \"…\" } and command of the same shape", () => {
    const program = parseOk(`
      query top(limit: int @default(10)) -> Customer[] {
        source: Warehouse
        sql: "SELECT id FROM customers LIMIT $1"
      }
      command add(name: string) -> Inserted { source: Warehouse, sql: "INSERT {x}" }`);
    expect(shape(program.decls)).toEqual([
      {
        kind: "Query",
        name: "top",
        params: [
          {
            kind: "Field",
            name: "limit",
            optional: false,
            type: prim("int"),
            annotations: [{ kind: "Annotation", name: "default", args: [{ value: 10 }] }],
          },
        ],
        returns: { kind: "ArrayType", element: { kind: "NamedType", name: "Customer" } },
        entries: [
          { kind: "Entry", key: "source", value: { kind: "Path", parts: ["Warehouse"] } },
          { kind: "Entry", key: "sql", value: { kind: "Lit", value: "SELECT id FROM customers LIMIT $1" } },
        ],
      },
      {
        kind: "Command",
        name: "add",
        params: [{ kind: "Field", name: "name", optional: false, type: prim("string"), annotations: [] }],
        returns: { kind: "NamedType", name: "Inserted" },
        entries: [
          { kind: "Entry", key: "source", value: { kind: "Path", parts: ["Warehouse"] } },
          { kind: "Entry", key: "sql", value: { kind: "Lit", value: "INSERT {x}" } },
        ],
      },
    ]);
  });

  test("query and command calls at top level are statements, not declarations", () => {
    const program = parseOk("query top({ limit: 3 })\ncommand add(args)");
    expect(program.decls).toEqual([]);
    expect(shape(program.body)).toEqual([
      { kind: "ExprStmt", expr: { kind: "DbCall", op: "query", name: "top", arg: { kind: "Object", entries: [{ key: "limit", value: num(3) }] } } },
      { kind: "ExprStmt", expr: { kind: "DbCall", op: "command", name: "add", arg: name("args") } },
    ]);
  });
});

/**
 * Table tests, one row per rule case: `[rule, source, expected message]`. Each source is
 * checked on its own (with a small shared prelude); the row passes when the expected
 * message is among the diagnostics — and, for `null`, when there are none at all.
 */
import { describe, expect, test } from "bun:test";
import { check } from "../../src/check";
import { parse } from "../../src/syntax/parse";

const PRELUDE = `
schema Out { ok: bool }
schema CalcResult { result: float }
model M { provider: "openai", name: "x" }
tool calculate(a: float, b: float) -> CalcResult {}
`;

function messagesOf(source: string): string[] {
  const parsed = parse(PRELUDE + source, "t.luma");
  expect(parsed.diagnostics.map((d) => d.message)).toEqual([]);
  return check(parsed.program!).map((d) => d.message);
}

type Row = [rule: string, source: string, expected: string | null];

function table(rows: Row[]): void {
  for (const [rule, source, expected] of rows) {
    test(`${rule}: ${expected ?? "no diagnostics"}`, () => {
      const messages = messagesOf(source);
      if (expected === null) expect(messages).toEqual([]);
      else expect(messages).toContain(expected);
    });
  }
}

describe("§3/§12 declarations share one namespace; members are unique", () => {
  table([
    ["duplicate schema", `schema Answer { a: int }\nschema Answer { a: int }`, "Duplicate schema 'Answer'."],
    ["duplicate across kinds", `fn Out() { print(1) }`, "Duplicate name 'Out': already declared as a schema."],
    ["duplicate tool", `tool calculate(a: int) -> Out {}`, "Duplicate tool 'calculate'."],
    ["duplicate model", `model M { provider: "openai", name: "y" }`, "Duplicate model 'M'."],
    ["duplicate field", `schema S { a: int  a: string }`, "Duplicate field 'a' in schema 'S'."],
    ["duplicate tool parameter", `tool t(a: int, a: int) -> Out {}`, "Duplicate parameter 'a' in tool 't'."],
    ["duplicate fn parameter", `fn f(a: int, a: int) { print(a) }`, "Duplicate parameter 'a' in function 'f'."],
    ["duplicate method", `agent A {\n fn go() { print(1) }\n fn go() { print(2) }\n}`, "Duplicate method 'go' in agent 'A'."],
    ["duplicate method parameter", `agent A {\n fn go(x: int, x: int) { print(x) }\n}`, "Duplicate parameter 'x' in method 'A.go'."],
    ["duplicate key", `tool t(a: int) -> Out {\n cache: true\n cache: false\n}`, "Duplicate key 'cache' in tool 't'."],
    ["duplicate needs", `tool t(a: int) -> Out {\n needs db: Out\n needs db: Out\n}`, "Duplicate needs 'db' in tool 't'."],
    ["duplicate union member", `schema U = Out | Out tagged by kind`, "Duplicate member 'Out' in schema 'U'."],
    ["duplicate tool in agent tools", `agent A { tools: [calculate, calculate] }`, "Duplicate tool 'calculate' in tools."],
  ]);
});

describe("§2 types: names resolve to declared schemas or tagged unions", () => {
  table([
    ["unknown field type", `schema S { a: Answr }`, "Unknown schema 'Answr'."],
    ["unknown array element", `schema S { a: Answr[][] }`, "Unknown schema 'Answr'."],
    ["unknown tool param type", `tool t(a: Inp) -> Out {}`, "Unknown schema 'Inp'."],
    ["unknown fn return type", `fn f() -> Answr { 1 }`, "Unknown schema 'Answr'."],
    ["unknown typed assignment", `x: Answr = 1`, "Unknown schema 'Answr'."],
    ["unknown ask target", `agent A {\n model: M\n fn go() { ask "x" -> Answr }\n}`, "Unknown schema 'Answr'."],
    ["type naming a model", `schema S { a: M }`, "'M' is a model, not a schema."],
    ["type naming a tool", `x: calculate = 1`, "'calculate' is a tool, not a schema."],
    ["union member unknown", `schema U = Out | Ghost tagged by kind`, "Unknown schema 'Ghost'."],
    ["union member is a union", `schema A { a: int }\nschema U = A | Out tagged by kind\nschema V = U | A tagged by kind`, "Member 'U' of schema 'V' must be a plain schema, not a tagged union."],
    ["union member is a tool", `schema U = Out | calculate tagged by kind`, "'calculate' is a tool, not a schema."],
    ["union tag clashes with a member field", `schema A { kind: string }\nschema U = A | Out tagged by kind`, "Tag 'kind' of schema 'U' clashes with a field of member 'A'."],
    ["recursion through an array has a finite value ([])", `schema Node { children: Node[] }`, null],
    ["recursion through optional fields and arrays", `schema P { c?: C }\nschema C { p: P[] }`, null],
    ["recursion through a union with a finite member", `schema W { t: T }\nschema T = Out | W tagged by kind`, null],
    ["a required self-reference has no finite value", `schema A { a: A }`, "Schema 'A' is recursive with no finite value: A -> A. Make a field on the cycle optional (name?: T, without @default) or a list (T[])."],
    ["required links A -> B -> A have no finite value", `schema A { b: B }\nschema B { a: A  n?: int }`, "Schema 'A' is recursive with no finite value: A -> B -> A. Make a field on the cycle optional (name?: T, without @default) or a list (T[])."],
    ["a union whose every member recurses has no finite value", `schema W { t: T }\nschema V { t: T }\nschema T = V | W tagged by kind`, "Schema 'W' is recursive with no finite value: W -> T -> W. Make a field on the cycle optional (name?: T, without @default) or a list (T[])."],
    ["a default is always filled in, so it does not end the recursion", `schema A { a?: A @default({}) }`, "Schema 'A' is recursive with no finite value: A -> A. Make a field on the cycle optional (name?: T, without @default) or a list (T[])."],
    ["a defaulted array ends the recursion ([] is finite)", `schema A { a: A[] @default([]) }`, null],
    ["a tagged union is a valid type", `schema A { a: int }\nschema U = A | Out tagged by kind\nschema S { u: U  us: U[] }`, null],
  ]);
});

describe("§3 field annotations", () => {
  table([
    ["unknown annotation", `schema S { a: int @rnage(0, 1) }`, "Unknown annotation '@rnage'."],
    ["@length on int", `schema S { a: int @length(1, 2) }`, "Annotation '@length' does not apply to type 'int'."],
    ["@range on string", `schema S { a: string @range(1, 2) }`, "Annotation '@range' does not apply to type 'string'."],
    ["@items on a non-array", `schema S { a: bool @items(1, 2) }`, "Annotation '@items' does not apply to type 'bool'."],
    ["@pattern on an enum", `schema S { a: enum["x"] @pattern("x") }`, `Annotation '@pattern' does not apply to type 'enum["x"]'.`],
    ["@range arity", `schema S { a: int @range(1) }`, "Annotation '@range' expects 2 arguments, got 1."],
    ["@desc arity", `schema S { a: int @desc() }`, "Annotation '@desc' expects 1 argument, got 0."],
    ["@range argument kind", `schema S { a: int @range("0", 1) }`, "Annotation '@range' argument 1 must be a number."],
    ["@length non-negative", `schema S { a: string @length(-1, 1) }`, "Annotation '@length' argument 1 must be a non-negative integer."],
    ["@severity values", `schema S { a: int @range(0, 1) @severity("medium") }`, `Annotation '@severity' must be "hard" or "soft".`],
    ["@format values", `schema S { a: string @format("phone") }`, `Annotation '@format' must be "email", "uri", "uuid", "date" or "date-time".`],
    ["@pattern regex", `schema S { a: string @pattern("(x") }`, "Annotation '@pattern' is not a valid ECMAScript regular expression."],
    ["bounds order", `schema S { a: int @range(5, 1) }`, "Annotation '@range' minimum must not be greater than its maximum."],
    ["duplicate annotation", `schema S { a: string @desc("x") @desc("y") }`, "Duplicate annotation '@desc' on 'a'."],
    ["@default string on int", `schema S { a?: int @default("ten") }`, "Annotation '@default' value does not match type 'int'."],
    ["@default float on int", `schema S { a?: int @default(1.5) }`, "Annotation '@default' value does not match type 'int'."],
    ["@default outside the enum", `schema S { a?: enum["en", "tr"] @default("de") }`, `Annotation '@default' value does not match type 'enum["en", "tr"]'.`],
    ["@default array element", `schema S { a?: int[] @default([1, "2"]) }`, "Annotation '@default' value does not match type 'int[]'."],
    ["@default object missing a required field", `schema I { a: int  b: int }\nschema S { i?: I @default({ a: 1 }) }`, "Annotation '@default' value does not match type 'I'."],
    ["annotations on tool params", `tool t(a: int @pattern("x")) -> Out {}`, "Annotation '@pattern' does not apply to type 'int'."],
    ["annotations on fn params", `fn f(a: string @range(0, 1)) { print(a) }`, "Annotation '@range' does not apply to type 'string'."],
    [
      "valid annotations",
      `schema S {\n a: int @range(0, 10) @severity("soft")\n b?: float @default(2) @min(0) @max(5)\n c: string @length(1, 2) @pattern("^a$") @format("uuid")\n d?: string[] @items(0, 3) @default(["x"])\n e?: enum["en", "tr"] @default("en") @desc("lang")\n f?: Out @default({ ok: true })\n}`,
      null,
    ],
  ]);
});

describe("§4 tools: return type, options, consistency rules (exact)", () => {
  table([
    ["tool returns a primitive", `tool t(a: int) -> int {}`, "Tool 't' must return a declared schema, not 'int'."],
    ["tool returns an enum", `tool t(a: int) -> enum["a"] {}`, `Tool 't' must return a declared schema, not 'enum["a"]'.`],
    ["tool returns an array", `tool t(a: int) -> Out[] {}`, "Tool 't' must return a declared schema, not 'Out[]'."],
    ["tool returns an unknown name", `tool t(a: int) -> Answr {}`, "Unknown schema 'Answr'."],
    ["unknown option", `tool t(a: int) -> Out { colour: "blue" }`, "Unknown key 'colour' in tool 't'."],
    ["side_effects values", `tool t(a: int) -> Out { side_effects: "delete" }`, `Key 'side_effects' in tool 't' must be "none", "read" or "write".`],
    ["cache is a bool", `tool t(a: int) -> Out { cache: "yes" }`, "Key 'cache' in tool 't' must be true or false."],
    ["scope is a string", `tool t(a: int) -> Out { scope: 3 }`, "Key 'scope' in tool 't' must be a string."],
    ["credential is an env var name", `tool t(a: int) -> Out { credential: "db password" }`, "Key 'credential' in tool 't' must be an environment variable name."],
    ["error names a declared schema", `tool t(a: int) -> Out { error: ToolErr }`, "Unknown schema 'ToolErr'."],
    ["error names a schema, not a model", `tool t(a: int) -> Out { error: M }`, "'M' is a model, not a schema."],
    ["retries >= 0", `tool t(a: int) -> Out { retries: -1 }`, "Key 'retries' in tool 't' must be an integer >= 0."],
    ["retry_backoff values", `tool t(a: int) -> Out { retry_backoff: "linear" }`, `Key 'retry_backoff' in tool 't' must be "none", "fixed" or "exponential".`],
    ["retry_delay >= 0", `tool t(a: int) -> Out { retry_delay: -5 }`, "Key 'retry_delay' in tool 't' must be an integer >= 0."],
    ["timeout is an integer", `tool t(a: int) -> Out { timeout: "fast" }`, "Key 'timeout' in tool 't' must be an integer."],
    ["idempotent is a bool", `tool t(a: int) -> Out { idempotent: 1 }`, "Key 'idempotent' in tool 't' must be true or false."],
    ["idempotency_ttl_ms > 0", `tool t(a: int) -> Out { idempotency_ttl_ms: 0 }`, "Key 'idempotency_ttl_ms' in tool 't' must be an integer >= 1."],
    ["description is a string", `tool t(a: int) -> Out { description: false }`, "Key 'description' in tool 't' must be a string."],
    ["idempotency_key names a parameter", `tool t(request_id: string) -> Out {\n idempotent: true\n idempotency_key: requestid\n}`, "Tool 't' idempotency_key 'requestid' does not name a parameter."],
    ["idempotency_key with input. names a parameter", `tool t(request_id: string) -> Out {\n idempotent: true\n idempotency_key: input.nope\n}`, "Tool 't' idempotency_key 'input.nope' does not name a parameter."],
    ["idempotency_key is a path", `tool t(request_id: string) -> Out {\n idempotent: true\n idempotency_key: [request_id]\n}`, "Key 'idempotency_key' in tool 't' must be a parameter path."],
    ["idempotency_key: request_id", `tool t(request_id: string) -> Out {\n idempotent: true\n idempotency_key: request_id\n}`, null],
    ["idempotency_key: input.request_id", `tool t(request_id: string) -> Out {\n idempotent: true\n idempotency_key: input.request_id\n}`, null],
    ["idempotency_key into an object param", `schema O { id: string }\ntool t(order: O) -> Out {\n idempotent: true\n idempotency_key: input.order.id\n}`, null],
    ["needs is a declared schema", `tool t(a: int) -> Out { needs n: int }`, "needs 'n' of tool 't' must be a declared schema, not 'int'."],
    ["needs unknown", `tool t(a: int) -> Out { needs db: Databse }`, "Unknown schema 'Databse'."],
    ["Write tool cannot use cache (exact)", `tool x(a: int) -> Out {\n side_effects: "write"\n cache: true\n}`, "Write tool 'x' cannot use cache."],
    ["write tool retried without idempotency (exact)", `tool x(a: int) -> Out {\n side_effects: "write"\n retries: 3\n}`, "A write tool 'x' must be idempotent and specify an idempotency_key to be retried."],
    ["write tool retried, idempotent without key (exact)", `tool x(a: int) -> Out {\n side_effects: "write"\n retries: 3\n idempotent: true\n}`, "A write tool 'x' must be idempotent and specify an idempotency_key to be retried."],
    ["idempotent needs a key (exact)", `tool x(a: int) -> Out { idempotent: true }`, "Idempotent tool 'x' must specify an idempotency_key."],
    ["timeout: 0 is invalid (exact)", `tool x(a: int) -> Out { timeout: 0 }`, "Tool 'x' timeout must be greater than zero."],
    ["needs + cache is the runtime's, not luma check's", `tool x(a: int) -> Out {\n needs db: Out\n cache: true\n}`, null],
    ["a read tool may be cached and retried", `tool x(a: int) -> Out {\n side_effects: "read"\n cache: true\n retries: 2\n}`, null],
    ["an idempotent write tool may be retried", `tool x(id: string) -> Out {\n side_effects: "write"\n retries: 2\n idempotent: true\n idempotency_key: id\n}`, null],
  ]);
});

describe("§5 models", () => {
  table([
    ["provider required", `model N { name: "x" }`, "Missing key 'provider' in model 'N'."],
    ["name required", `model N { provider: "openai" }`, "Missing key 'name' in model 'N'."],
    ["provider values", `model N { provider: "mistral", name: "x" }`, `Key 'provider' in model 'N' must be "openai", "openai-compatible", "azure", "anthropic", "gemini" or "mcp".`],
    ["base_url for openai-compatible", `model N { provider: "openai-compatible", name: "x" }`, `Model 'N' with provider "openai-compatible" must specify a base_url.`],
    ["temperature is a number", `model N { provider: "openai", name: "x", temperature: "warm" }`, "Key 'temperature' in model 'N' must be a number."],
    ["max_tokens is an integer", `model N { provider: "openai", name: "x", max_tokens: 1.5 }`, "Key 'max_tokens' in model 'N' must be an integer >= 1."],
    ["unknown model key", `model N { provider: "openai", name: "x", top_k: 1 }`, "Unknown key 'top_k' in model 'N'."],
    ["openai-compatible with base_url", `model N { provider: "openai-compatible", name: "x", base_url: "http://h/v1" }`, null],
  ]);
});

describe("§6 agents", () => {
  table([
    ["model names a declared model", `agent A { model: Ghost }`, "Unknown model 'Ghost'."],
    ["model is a name, not a string", `agent A { model: "M" }`, "Key 'model' in agent 'A' must be a model name."],
    ["tools are declared", `agent A { tools: [calculate, ghost] }`, "Unknown tool 'ghost'."],
    ["model names a model, not a schema", `agent A { model: Out }`, "'Out' is a schema, not a model."],
    ["tools names tools, not schemas", `agent A { tools: [Out] }`, "'Out' is a schema, not a tool."],
    ["tools is a list", `agent A { tools: calculate }`, "Key 'tools' in agent 'A' must be a list of tool names."],
    ["tool_concurrency >= 1", `agent A { tool_concurrency: 0 }`, "Key 'tool_concurrency' in agent 'A' must be an integer >= 1."],
    ["tool_rate_limit >= 0", `agent A { tool_rate_limit: -1 }`, "Key 'tool_rate_limit' in agent 'A' must be an integer >= 0."],
    ["tool_failure_limit >= 1", `agent A { tool_failure_limit: 0 }`, "Key 'tool_failure_limit' in agent 'A' must be an integer >= 1."],
    ["tool_timeout >= 1", `agent A { tool_timeout: 0 }`, "Key 'tool_timeout' in agent 'A' must be an integer >= 1."],
    ["retries >= 0", `agent A { retries: -1 }`, "Key 'retries' in agent 'A' must be an integer >= 0."],
    ["tool_policy values", `agent A { tool_policy: "maybe" }`, `Key 'tool_policy' in agent 'A' must be "allow", "deny_write" or "approval".`],
    ["tool_scopes is a string list", `agent A { tool_scopes: "db" }`, "Key 'tool_scopes' in agent 'A' must be a list of strings."],
    ["tool_contexts is a string list", `agent A { tool_contexts: [1] }`, "Key 'tool_contexts' in agent 'A' must be a list of strings."],
    ["system is a string", `agent A { system: 1 }`, "Key 'system' in agent 'A' must be a string."],
    ["unknown agent key", `agent A { temperature: 1 }`, "Unknown key 'temperature' in agent 'A'."],
    ["ask needs a model", `agent A {\n fn go() -> Out { ask "x" -> Out }\n}`, "Agent 'A' uses ask but declares no model."],
    ["queries and commands may be agent tools", `datasource D {}\nquery q() -> Out[] { source: D, sql: "x" }\ncommand c() -> Out { source: D, sql: "y" }\nagent A { tools: [calculate, q, c] }`, null],
  ]);
});

describe("§7 ask and direct tool calls", () => {
  const agent = (body: string) => `agent A {\n model: M\n tools: []\n fn go() -> Out {\n ${body}\n }\n}`;
  table([
    ["using tool not in tools (exact)", agent(`ask "x" -> Out using tool calculate`), "Agent 'A' does not allow the tool 'calculate' required by using tool."],
    ["direct call not in tools (exact)", agent(`tool calculate({ a: 1, b: 2 })`), "Agent 'A' does not allow tool 'calculate' to be called directly."],
    ["using tool names no tool", agent(`ask "x" -> Out using tool ghost`), "Unknown tool 'ghost'."],
    ["tool call names no tool", `x = tool ghost({})`, "Unknown tool 'ghost'."],
    ["tool call names a model", `x = tool M({})`, "'M' is a model, not a tool."],
    ["using tool names a schema", agent(`ask "x" -> Out using tool Out`), "'Out' is a schema, not a tool."],
    ["ask in top-level code", `x = ask "x" -> Out`, "'ask' is only allowed inside an agent method."],
    ["ask in a top-level fn", `fn f() -> Out { ask "x" -> Out }`, "'ask' is only allowed inside an agent method."],
    ["top-level direct calls are allowed", `x = tool calculate({ a: 1, b: 2 })\nfn f() { tool calculate({ a: 1, b: 2 }) }`, null],
    ["listed tools are allowed", `agent A {\n model: M\n tools: [calculate]\n fn go() -> Out {\n x = tool calculate({ a: 1, b: 2 })\n ask "{x}" -> Out using tool calculate\n }\n}`, null],
  ]);
});

describe("§7 names and scopes", () => {
  table([
    ["unknown name", `print(x)`, "Unknown name 'x'."],
    ["assigned later reads as null", `fn f() {\n print(later)\n later = 1\n}`, null],
    ["assigned in a branch", `fn f(t: int) {\n if t > 1 { bonus = 1 }\n print(bonus)\n}`, null],
    ["for and catch variables", `for i in [1] { print(i) }\ntry { print(1) } catch e { print(e.message) }`, null],
    ["agents, fns and builtins are names", `agent A { fn go() { print(1) } }\nfn f() { print(A.go(), f(), len([])) }`, null],
    ["args at top level", `print(args)`, null],
    ["args not inside a fn", `fn f() { print(args) }`, "Unknown name 'args'."],
    ["top-level fns do not see top-level variables", `top = 1\nfn f() { print(top) }`, "Unknown name 'top'."],
    ["methods do not see top-level variables", `top = 1\nagent A { fn go() { print(top) } }`, "Unknown name 'top'."],
    ["names inside interpolation", `print("v = {nope}")`, "Unknown name 'nope'."],
    ["a variable of another fn", `fn f() { v = 1 }\nfn g() { print(v) }`, "Unknown name 'v'."],
  ]);
});

describe("§7 functions and agents are called, not read as values", () => {
  const decls = `agent A { fn go() { print(1) } }\nfn f() -> int { return 1 }\n`;
  table([
    ["a fn as a value", decls + `y = f`, "'f' is a function, not a value."],
    ["a builtin as an argument", `print(calls(print))`, "'print' is a builtin function, not a value."],
    ["a builtin as a value", `x = len`, "'len' is a builtin function, not a value."],
    ["a builtin in interpolation", `print("{now}")`, "'now' is a builtin function, not a value."],
    ["a fn inside a fn", decls + `fn g() { print([f]) }`, "'f' is a function, not a value."],
    ["an agent as a value", decls + `print(A)`, "'A' is an agent, not a value."],
    ["an agent method without its call", decls + `m = A.go`, "'A.go' is a method of agent 'A', not a value."],
    ["a variable of the same name shadows the builtin", `len = 3\nprint(len)`, null],
    ["a parameter of the same name shadows the fn", decls + `fn g(f: int) -> int { return f }`, null],
    ["top-level args is a variable, whatever else is called args", `fn args() -> int { return 1 }\nprint(args)`, null],
    ["calls takes a tool name as a string", `x = calls("lookup")`, null],
    ["a tool in tools: [...] is a declaration key, not code", `schema S { n: int }\ntool t(n: int) -> S {}\nagent B { tools: [t] }`, null],
    ["calling is fine", decls + `a = f()\nb = A.go()\nc = len([1])`, null],
  ]);
});

describe("§6–7 calls", () => {
  const fnDecl = `fn f(a: int, b?: int, c: int @default(3)) { print(a, b, c) }\n`;
  table([
    ["unknown function", `nope()`, "Unknown function 'nope'."],
    ["fn arity: too few", fnDecl + `f()`, "Function 'f' expects 1 to 3 arguments, got 0."],
    ["fn arity: too many", fnDecl + `f(1, 2, 3, 4)`, "Function 'f' expects 1 to 3 arguments, got 4."],
    ["fn arity: optional and defaulted may be left out", fnDecl + `f(1)\nf(1, 2)\nf(1, 2, 3)`, null],
    ["builtin arity", `x = len()`, "Builtin 'len' expects 1 argument, got 0."],
    ["now takes none", `x = now(1)`, "Builtin 'now' expects 0 arguments, got 1."],
    ["print takes any number", `print()\nprint(1, 2, 3, 4)`, null],
    ["unknown method", `agent A { fn go() { print(1) } }\nA.gone()`, "Agent 'A' has no method 'gone'."],
    ["method arity", `agent A { fn go(x: int) { print(x) } }\nA.go()`, "Method 'A.go' expects 1 argument, got 0."],
    ["unknown agent", `Ghost.run()`, "Unknown agent 'Ghost'."],
    ["sibling methods by bare name", `agent A {\n fn go() { helper(1) }\n fn helper(x: int) { print(x) }\n}`, null],
    ["sibling methods are not visible outside the agent", `agent A { fn helper() { print(1) } }\nhelper()`, "Unknown function 'helper'."],
    ["a variable is not callable", `x = 1\nx()`, "Only functions, builtins and agent methods can be called."],
    ["a method call on a value", `x = 1\nx.run()`, "Only functions, builtins and agent methods can be called."],
  ]);
});

describe("§7 statements", () => {
  table([
    ["a top-level return takes no value", `return 1`, "A top-level 'return' takes no value: it ends the script (use exit(code) to end with a status)."],
    ["a bare top-level return ends the script", `if len(args) == 0 {\n  return\n}\nprint(args)`, null],
    ["break outside a loop", `if true {\n  break\n}`, "'break' is only allowed inside a 'for' or 'while' loop."],
    ["continue outside a loop", `continue`, "'continue' is only allowed inside a 'for' or 'while' loop."],
    ["a fn does not see the loop around its call", `fn f() {\n  break\n}\nfor x in [1] { f() }`, "'break' is only allowed inside a 'for' or 'while' loop."],
    ["break and continue inside loops, nested blocks included", `for x in [1] {\n  if x == 1 { continue }\n  try { break } catch e { print(e) }\n}\nwhile true { break }`, null],
    ["return inside a fn", `fn f() { return 1 }`, null],
    [
      "a return value on the next line is not silently a bare return",
      `fn f() -> int {\n  return\n    42\n}`,
      "This 'return' returns nothing: its value must start on the same line, and the statement after it never runs.",
    ],
    [
      "a bare return followed by a statement in a nested block",
      `agent A {\n  fn go() {\n    if true {\n      return\n      print(1)\n    }\n  }\n}`,
      "This 'return' returns nothing: its value must start on the same line, and the statement after it never runs.",
    ],
    ["a bare return that ends its block", `fn f() {\n  if true {\n    return\n  }\n  print(1)\n}`, null],
  ]);
});

describe("§12 datasource / query / command", () => {
  const ds = `datasource D {}\n`;
  table([
    ["source required", ds + `query q() -> Out[] { sql: "x" }`, "Missing key 'source' in query 'q'."],
    ["sql required", ds + `command c() -> Out { source: D }`, "Missing key 'sql' in command 'c'."],
    ["source is a declared datasource", `query q() -> Out[] { source: Nowhere, sql: "x" }`, "Unknown datasource 'Nowhere'."],
    ["sql is a string", ds + `query q() -> Out[] { source: D, sql: 1 }`, "Key 'sql' in query 'q' must be a string."],
    ["unknown query key", ds + `query q() -> Out[] { source: D, sql: "x", cache: true }`, "Unknown key 'cache' in query 'q'."],
    ["unknown datasource key", `datasource D { driver: "pg" }`, "Unknown key 'driver' in datasource 'D'."],
    ["query returns schema rows", ds + `query q() -> int[] { source: D, sql: "x" }`, "Query 'q' must return a schema or a schema array, not 'int[]'."],
    ["command returns a schema", ds + `command c() -> Out[] { source: D, sql: "x" }`, "Command 'c' must return a schema, not 'Out[]'."],
    ["query call names a query", ds + `command c() -> Out { source: D, sql: "x" }\nx = query c({})`, "'c' is a command, not a query."],
    ["command call names a command", ds + `query q() -> Out[] { source: D, sql: "x" }\nx = command q({})`, "'q' is a query, not a command."],
    ["unknown query", `x = query nope({})`, "Unknown query 'nope'."],
    ["source names a datasource, not a model", `query q() -> Out[] { source: M, sql: "x" }`, "'M' is a model, not a datasource."],
    ["valid statements", ds + `query q(limit: int @default(10)) -> Out[] { source: D, sql: "x" }\nquery one() -> Out { source: D, sql: "x" }\ncommand c(n: string) -> Out { source: D, sql: "y" }\nrows = query q({ limit: 1 })\nr = command c({ n: "a" })`, null],
  ]);
});

describe("luma check collects every problem", () => {
  test("diagnostics are all reported, in source order", () => {
    const parsed = parse(`schema A { a: Nope }\nx = y\ntool t(a: int) -> int {}\n`, "t.luma");
    const diagnostics = check(parsed.program!);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "Unknown schema 'Nope'.",
      "Unknown name 'y'.",
      "Tool 't' must return a declared schema, not 'int'.",
    ]);
    expect(diagnostics.every((d) => d.severity === "error" && d.span?.file === "t.luma")).toBe(true);
  });
});

describe("§1 number literals and §3 @severity warnings", () => {
  test("'Number literal is out of range' for a literal that is not finite, in code, annotations and entries", async () => {
    const { parse } = await import("../../src/syntax/parse");
    const { check } = await import("../../src/check/index");
    const src = `schema A { x: float @range(0, 1e999) }
tool t(a: float) -> A { timeout: 1e500 }
y = -1e400
`;
    const diags = check(parse(src, "n.luma").program!);
    expect(diags.filter((d) => d.message.startsWith("Number literal is out of range")).map((d) => d.severity)).toEqual(["error", "error", "error"]);
  });

  test("@severity on a field with no rule is a warning, not an error", async () => {
    const { parse } = await import("../../src/syntax/parse");
    const { check } = await import("../../src/check/index");
    const diags = check(parse(`schema A {\n  x: int @severity("soft")\n  y: int @range(0, 1) @severity("soft")\n}\n`, "s.luma").program!);
    expect(diags.map((d) => [d.severity, d.message])).toEqual([
      ["warning", "@severity on 'x' has no rule to apply to (add @range, @length, @pattern, @format, @items, @min or @max)."],
    ]);
  });
});

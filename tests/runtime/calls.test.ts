import { describe, test, expect } from "bun:test";
import { MAX_CALL_DEPTH } from "../../src/runtime/interpreter/run-program";
import { failure, output, runSource } from "./interpreter-harness";

const TOOLS = `
schema CalcResult { result: float }
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}
`;
const calculate = (i: any) => ({ result: i.operation === "add" ? i.a + i.b : i.a * i.b });

describe("§7 functions: 'fn name(params) -> Type' at top level", () => {
  test("callable by name from anywhere, before or after their declaration, and recursively", async () => {
    const src = `print(fact(5))
fn fact(n: int) -> int {
  if n <= 1 { return 1 }
  n * fact(n - 1)
}`;
    expect(await output(src)).toEqual(["120"]);
  });
  test("top-level fns do not see top-level variables", async () => {
    const e = await failure(`secret = 1\nfn peek() { secret }\nprint(peek())`);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.message).toStartWith("Unknown name 'secret' at test.luma:2:13");
  });
  test("variables of one call are not visible to another (each call has its own frame)", async () => {
    const src = `fn f(n: int) { if n > 0 { mine = n\n f(n - 1) }\n mine }\nprint(f(2))`;
    // f(1) assigning its own `mine` = 1 must not change f(2)'s `mine`.
    expect(await output(src)).toEqual(["2"]);
  });
  test("user functions shadow builtins of the same name", async () => {
    expect(await output(`fn len(x: any) -> string { "mine" }\nprint(len([1, 2]))`)).toEqual(["mine"]);
  });
});

describe("§7 'the return value is validated against the declared type'", () => {
  test("a wrong return value is VALUE_INVALID naming the fn and the path", async () => {
    const e = await failure(`fn half(n: int) -> int {\n  n / 2\n}\nprint(half(3))`);
    expect(e.code).toBe("VALUE_INVALID");
    expect(e.message).toBe("half.return must be integer at test.luma:2:3");
  });
  test("an explicit return is located at the return statement", async () => {
    const e = await failure(`schema P { name: string }\nfn mk() -> P {\n  return { name: 3 }\n}\nmk()`);
    expect(e.code).toBe("VALUE_INVALID");
    expect(e.message).toBe("mk.return.name must be string at test.luma:3:3");
  });
  test("without '-> T' nothing is validated", async () => {
    expect(await output(`fn any_thing() { "text" }\nprint(any_thing())`)).toEqual(["text"]);
  });
});

describe("§7 parameters bind by position", () => {
  test("each argument is validated against its parameter type (VALUE_INVALID)", async () => {
    const e = await failure(`fn twice(n: int) -> int { n * 2 }\nprint(twice("x"))`);
    expect(e.code).toBe("VALUE_INVALID");
    expect(e.message).toBe("twice.n must be integer at test.luma:2:13");
  });
  test("missing trailing arguments take their @default; optional ones are null", async () => {
    const src = `fn greet(name: string, greeting: string @default("Hello"), mark?: string) { "{greeting}, {name}{mark}" }
print(greet("Ada"), greet("Bob", "Hi"), greet("Cy", "Yo", "!"))`;
    expect(await output(src)).toEqual(["Hello, Adanull Hi, Bobnull Yo, Cy!"]);
  });
  test("a missing required argument or an extra one is RUNTIME_ERROR", async () => {
    expect((await failure(`fn f(a: int) { a }\nf()`)).message).toStartWith("'f' is missing argument 'a'");
    expect((await failure(`fn f(a: int) { a }\nf(1, 2)`)).message).toStartWith("'f' takes 1 argument(s), got 2");
  });
});

describe("§7 recursion depth", () => {
  test("unbounded recursion is RUNTIME_ERROR (depth limit), not a JS stack overflow", async () => {
    const e = await failure(`fn down(n: int) -> int { down(n + 1) }\ndown(0)`);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.message).toContain(`Maximum call depth of ${MAX_CALL_DEPTH} exceeded calling 'down'`);
  });
  test("recursion below the limit works", async () => {
    expect(await output(`fn sum(n: int) -> int { if n == 0 { return 0 }\n n + sum(n - 1) }\nprint(sum(900))`)).toEqual(["405450"]);
  });
  test("a recursion error can be caught like any LumaError", async () => {
    expect(await output(`fn loop() { loop() }\ntry { loop() } catch e { print(e.code) }`)).toEqual(["RUNTIME_ERROR"]);
  });
});

describe("§6 agents are called like objects; methods call each other by bare name", () => {
  const AGENT = `${TOOLS}
agent Flow {
  tools: [calculate]
  fn run(text: string) -> string {
    n = helper(2)
    "{text}:{n}"
  }
  fn helper(x: int) -> int {
    r = tool calculate({ a: x, b: 10, operation: "multiply" })
    r.result
  }
}
`;
  test("Flow.run(x) runs the method; bare sibling calls reach the other method", async () => {
    expect(await output(`${AGENT}print(Flow.run("go"))`, { tools: { calculate } })).toEqual(["go:20"]);
  });
  test("method tool calls pass the agent and the method call state; top-level calls pass neither", async () => {
    const r = await runSource(`${AGENT}Flow.run("a")\ntool calculate({ a: 1, b: 1, operation: "add" })`, { tools: { calculate } });
    expect(r.error).toBeUndefined();
    expect(r.calls).toHaveLength(2);
    expect(r.calls[0].agent?.name).toBe("Flow");
    expect(r.calls[0].methodCall).toEqual({ failures: 0 });
    expect(r.calls[0].mode).toBe("direct");
    expect(r.calls[0].input).toEqual({ a: 2, b: 10, operation: "multiply" });
    expect(r.calls[1].agent).toBeUndefined();
    expect(r.calls[1].methodCall).toBeUndefined();
    expect("agent" in r.calls[1]).toBe(false);
  });
  test("a top-level fn called from a method makes its tool calls without the agent", async () => {
    const src = `${TOOLS}
fn util() { tool calculate({ a: 1, b: 1, operation: "add" }) }
agent A { tools: [calculate]\n fn run() { util() } }
A.run()`;
    const r = await runSource(src, { tools: { calculate } });
    expect(r.error).toBeUndefined();
    expect(r.calls[0].agent).toBeUndefined();
    expect(r.calls[0].methodCall).toBeUndefined();
  });
  test("method arguments are validated against parameter types", async () => {
    const e = await failure(`${AGENT}Flow.run(42)`, { tools: { calculate } });
    expect(e.code).toBe("VALUE_INVALID");
    expect(e.message).toStartWith("Flow.run.text must be string at test.luma:");
  });
  test("an unknown method is RUNTIME_ERROR", async () => {
    expect((await failure(`${AGENT}Flow.nope()`)).message).toStartWith("Agent 'Flow' has no method 'nope'");
  });
});

describe("§9 MethodCallState: 'failures are counted within one agent method call'", () => {
  const src = `${TOOLS}
agent Flow {
  tools: [calculate]
  fn run() { a = step()\n b = step()\n tool calculate({ a: 0, b: 0, operation: "add" }) }
  fn step() { tool calculate({ a: 0, b: 0, operation: "add" }) }
  fn again() { Flow.step() }
}
Flow.run()
Flow.run()
Flow.again()
`;
  test("fresh per outside call, shared by bare sibling calls", async () => {
    // The fake counts on the state object so sharing is observable.
    const tools = { calculate: (_: unknown, req: any) => ({ result: ++req.methodCall.failures }) };
    const r = await runSource(src, { tools });
    expect(r.error).toBeUndefined();
    const states = r.calls.map((c) => c.methodCall);
    expect(states).toHaveLength(7);
    // First Flow.run(): step, step, own call share one state.
    expect(states[0]).toBe(states[1]);
    expect(states[1]).toBe(states[2]);
    expect(states[2]).toEqual({ failures: 3 });
    // Second Flow.run() starts over.
    expect(states[3]).not.toBe(states[0]);
    expect(states[3]).toBe(states[5]);
    expect(states[5]).toEqual({ failures: 3 });
    // Flow.step() written with the agent name is a new agent method call, even from inside Flow.
    expect(states[6]).toEqual({ failures: 1 });
  });
});

describe("§7 'Top-level args: the command line arguments after the file, as string[]'", () => {
  test("args is a string array in top-level code", async () => {
    expect(await output(`print(args, len(args), args[0])`, { args: ["one", "two 2"] })).toEqual(['["one","two 2"] 2 one']);
    expect(await output(`print(args)`)).toEqual(["[]"]);
  });
});

describe("§7 fn parameters keep their annotations", () => {
  test("a fn parameter's @range and @length are enforced as input rules (VALUE_INVALID with the path)", async () => {
    const { parse } = await import("../../src/syntax/parse");
    const { createSchemaTable } = await import("../../src/schema/schema-table");
    const { runProgram } = await import("../../src/runtime/interpreter/run-program");
    const src = `fn pick(n: int @range(1, 10), label: string @length(1, 5)) -> string {
  "{label}{n}"
}
print(pick(3, "ab"))
try { pick(11, "ab") } catch e { print(e.code, e.message) }
try { pick(2, "abcdefg") } catch e { print(e.message) }
`;
    const program = parse(src, "p.luma").program!;
    const out: string[] = [];
    await runProgram(program, {
      args: [], schemas: createSchemaTable(program), tools: { call: async () => ({}) },
      stdout: (l) => out.push(l), stderr: () => {}, sourceOf: () => src,
    });
    expect(out).toEqual([
      "ab3",
      "VALUE_INVALID pick.n must be <= 10 (@range) at p.luma:5:12",
      "pick.label must be at most 5 characters long (@length) at p.luma:6:15",
    ]);
  });
});

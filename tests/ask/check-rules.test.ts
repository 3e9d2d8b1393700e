import { describe, expect, test } from "bun:test";
import { check } from "../../src/check";
import { parse } from "../../src/syntax/parse";

const messagesOf = (source: string) => check(parse(source, "t.luma").program!).map((d) => d.message);
const LONG = "t".repeat(65);
const BASE = `schema R { r: int }\ntool ${LONG}(x: int) -> R {}\ntool ok_tool(x: int) -> R {}\nmodel M { provider: "openai" name: "x" }\n`;

describe("§6–7 checks for agents that talk to a model", () => {
  test("a tool offered to a model must have a name of at most 64 characters (providers reject longer ones)", () => {
    expect(messagesOf(`${BASE}agent A { model: M  tools: [${LONG}, ok_tool] }`)).toEqual([
      `Agent 'A' offers tool '${LONG}' to its model, but model providers accept tool names of at most 64 characters.`,
    ]);
  });
  test("an agent without a model only calls its tools directly: any identifier will do", () => {
    expect(messagesOf(`${BASE}agent A { tools: [${LONG}] }`)).toEqual([]);
  });
  test("the rules that were already there: ask needs an agent with a model; using tool must be in tools", () => {
    expect(messagesOf(`${BASE}agent A { fn f() -> R { ask "x" -> R } }`)).toEqual(["Agent 'A' uses ask but declares no model."]);
    expect(messagesOf(`${BASE}agent A { model: M  tools: [ok_tool]  fn f() -> R { ask "x" -> R using tool ${LONG} } }`)).toContain(
      `Agent 'A' does not allow the tool '${LONG}' required by using tool.`,
    );
  });
});

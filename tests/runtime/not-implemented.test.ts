import { describe, test, expect } from "bun:test";
import { failure, output } from "./interpreter-harness";

const HEAD = `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Answer { summary: string }
agent Bot {
  model: M
  fn run(text: string) -> Answer {
    ask "Summarise {text}" -> Answer
  }
}
`;

describe("§7 ask — not implemented in this version", () => {
  test("'ask' is NOT_IMPLEMENTED with a clear message and its location, never a crash", async () => {
    const e = await failure(`${HEAD}print("before")\nBot.run("x")`);
    expect(e.code).toBe("NOT_IMPLEMENTED");
    expect(e.phase).toBe("runtime");
    const line = HEAD.split("\n").findIndex((l) => l.includes("ask ")) + 1;
    expect(e.message).toBe(
      `'ask' is not implemented yet in this version of Luma (planned: native tool calling issue) at test.luma:${line}:5`,
    );
    expect(e.out).toEqual(["before"]);
  });
  test("it can be caught like any LumaError", async () => {
    expect(await output(`${HEAD}try { Bot.run("x") } catch e { print(e.code) }`)).toEqual(["NOT_IMPLEMENTED"]);
  });
});

describe("§12 query / command — not implemented in this version", () => {
  const DB = `datasource W {}
schema Row { id: int }
query rows(limit: int) -> Row[] { source: W  sql: "SELECT id FROM t LIMIT $1" }
command add(name: string) -> Row { source: W  sql: "INSERT INTO t(name) VALUES ($1) RETURNING id" }
`;
  test("query and command are NOT_IMPLEMENTED naming the datasource work", async () => {
    const q = await failure(`${DB}r = query rows({ limit: 1 })`);
    expect(q.code).toBe("NOT_IMPLEMENTED");
    expect(q.message).toStartWith("'query' is not implemented yet in this version of Luma (planned: datasource issue) at test.luma:");
    const c = await failure(`${DB}r = command add({ name: "a" })`);
    expect(c.message).toStartWith("'command' is not implemented yet");
  });
});

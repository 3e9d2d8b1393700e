import { describe, test, expect } from "bun:test";
import { createSchemaTable } from "../../src/schema/schema-table";
import { runProgram } from "../../src/runtime/interpreter/run-program";
import { LumaError } from "../../src/diagnostics/luma-error";
import { parseOk } from "./interpreter-harness";

async function run(source: string) {
  const program = parseOk(source);
  const out: string[] = [];
  const err: string[] = [];
  let error: LumaError | undefined;
  try {
    await runProgram(program, {
      args: [],
      schemas: createSchemaTable(program),
      tools: { call: async () => null },
      stdout: (l) => out.push(l),
      stderr: (l) => err.push(l),
      sourceOf: () => source,
    });
  } catch (e) {
    error = e as LumaError;
  }
  return { out, err, error };
}

describe("§7 validation against the real schema table", () => {
  const SRC = `schema Answer { summary: string  score: int @range(0, 10) @severity("soft") }
fn mk(s: any) -> Answer { { summary: "x", score: s } }
`;
  test("a soft rule on a return value warns on stderr with the dotted path and keeps the value", async () => {
    const r = await run(`${SRC}a = mk(11)\nprint(a.score)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["11"]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toStartWith("warning: mk.return.score must be <= 10 (@range) at test.luma:2:");
  });
  test("a hard issue is VALUE_INVALID with the path and location", async () => {
    const r = await run(`${SRC}a: Answer = { summary: 3, score: 1 }`);
    expect(r.error?.code).toBe("VALUE_INVALID");
    expect(r.error?.message).toStartWith("a.summary must be a string");
    expect(r.error?.message).toEndWith("at test.luma:3:1");
  });
});

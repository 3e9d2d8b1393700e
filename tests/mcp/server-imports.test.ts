/**
 * `luma mcp FILE` with imports (issue #28 §1): a program whose tools come from an imported
 * file serves them under their declared names — an alias renames only in the importer —
 * and a call runs through the pipeline to the built-in handler; a tool the imported file
 * declares but the program neither imports nor reaches is not served (it has no handler).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectLuma, tempDir, textJson, type StdioSession } from "./mcp-harness";

setDefaultTimeout(30_000);

describe("luma mcp serves what a program imports", () => {
  let s: StdioSession;
  beforeAll(async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "lib"));
    writeFileSync(
      join(dir, "lib/tools.luma"),
      `schema CalcResult { result: float }\ntool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {\n  side_effects: "none"\n}\ntool unreached(x: string) -> CalcResult {}\n`,
    );
    writeFileSync(join(dir, "main.luma"), `import { calculate as calc } from "./lib/tools.luma"\n`);
    s = await connectLuma([join(dir, "main.luma")]);
  });
  afterAll(() => s.close());

  test("the imported tool is listed under its declared name, the unreached one is not", async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["calculate"]);
  });

  test("a call runs it", async () => {
    const r = await s.client.callTool({ name: "calculate", arguments: { a: 2, b: 5, operation: "multiply" } });
    expect(r.isError).toBeFalsy();
    expect(textJson(r)).toEqual({ result: 10 });
  });
});

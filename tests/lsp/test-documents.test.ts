/**
 * `luma lsp` on a test document (issue #18): `NAME.test.luma` is analysed with the
 * declarations of `NAME.luma`, as `luma test` and `luma check` see it — the file on disk,
 * or the editor's open text of it, unsaved edits included. Only the test document's own
 * problems are published on it. The real binary, over stdio, with real files.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;

const PROGRAM = `schema Forecast {
  city: string
  temperature_c: float
}

tool get_weather(city: string) -> Forecast {
  side_effects: "none"
}

model Assistant {
  provider: "openai"
  name: "gpt-5-mini"
}

agent Planner {
  model: Assistant
  fn advise(city: string) -> string {
    return ask "What to wear in {city}?" -> string
  }
}

fn broken() -> int {
  return "seven"
}
`;

const TESTS = `test "the forecast" {
  forecast = tool get_weather({ city: "Lisbon" })
  assert forecast.city == "Lisbon"
  assert Planner.advise("Oslo") != ""
}
`;

const dir = mkdtempSync(join(tmpdir(), "luma-lsp-tests-"));
const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
let lsp: LspSession;
beforeAll(async () => {
  writeFileSync(join(dir, "plan.luma"), PROGRAM);
  writeFileSync(join(dir, "plan.test.luma"), TESTS);
  lsp = await startLsp();
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe("a test document NAME.test.luma sees the declarations of NAME.luma", () => {
  test("the names it takes from NAME.luma on disk are known: nothing is published on it (NAME.luma's own error stays there)", async () => {
    const { diagnostics } = await lsp.open(uriOf("plan.test.luma"), TESTS);
    expect(diagnostics).toEqual([]);
  }, LIMIT_MS);

  test("a real error in the test document is published at its range there", async () => {
    const text = `${TESTS}test "typo" {\n  assert Planner.nope("x") == ""\n}\n`;
    const { diagnostics } = await lsp.open(uriOf("plan.test.luma"), text, 2);
    expect(diagnostics.map((d) => d.message)).toEqual(["Agent 'Planner' has no method 'nope'."]);
    expect(diagnostics[0].range.start).toEqual(positionOf(text, "Planner.nope"));
  }, LIMIT_MS);

  test("types come from NAME.luma: completion after `forecast.` offers Forecast's fields", async () => {
    const text = `test "t" {\n  forecast = tool get_weather({ city: "Lisbon" })\n  x = forecast.\n}\n`;
    await lsp.open(uriOf("plan.test.luma"), text, 3);
    const items: any = await lsp.conn.sendRequest("textDocument/completion", {
      textDocument: { uri: uriOf("plan.test.luma") },
      position: positionOf(text, "forecast.", 0, "forecast.".length),
    });
    const labels = (Array.isArray(items) ? items : items.items).map((i: any) => i.label);
    expect(labels).toContain("city");
    expect(labels).toContain("temperature_c");
  }, LIMIT_MS);

  test("NAME.luma open in the editor wins over the disk, unsaved edits included; the test document is re-analysed", async () => {
    const testUri = uriOf("plan.test.luma");
    const { diagnostics: before } = await lsp.open(testUri, TESTS, 4);
    expect(before).toEqual([]);
    const since = lsp.publishedCount();
    // The editor opens plan.luma and renames the agent, unsaved: the test document's `Planner` is now unknown.
    await lsp.open(uriOf("plan.luma"), PROGRAM.replace("agent Planner", "agent Adviser"));
    const after = await lsp.nextDiagnostics(testUri, since);
    expect(after.diagnostics.map((d) => d.message)).toEqual(["Unknown agent 'Planner'."]);
    // Closing plan.luma: its tests see the file on disk again.
    const again = lsp.publishedCount();
    await lsp.conn.sendNotification("textDocument/didClose", { textDocument: { uri: uriOf("plan.luma") } });
    expect((await lsp.nextDiagnostics(testUri, again)).diagnostics).toEqual([]);
  }, LIMIT_MS);

  test("a test file with no NAME.luma beside it is analysed on its own", async () => {
    const { diagnostics } = await lsp.open(uriOf("alone.test.luma"), TESTS);
    expect(diagnostics.map((d) => d.message)).toContain("Unknown agent 'Planner'.");
  }, LIMIT_MS);
});

describe("completion inside a test block", () => {
  test("a test's own variables are offered there (each `test` block is a code unit of its own)", async () => {
    const text = `test "t" {\n  forecast_today = tool get_weather({ city: "Lisbon" })\n  assert fore\n}\n`;
    await lsp.open(uriOf("plan.test.luma"), text, 9);
    const items: any = await lsp.conn.sendRequest("textDocument/completion", {
      textDocument: { uri: uriOf("plan.test.luma") },
      position: positionOf(text, "assert fore", 0, "assert fore".length),
    });
    const labels = (Array.isArray(items) ? items : items.items).map((i: any) => i.label);
    expect(labels).toContain("forecast_today");
  }, LIMIT_MS);
});

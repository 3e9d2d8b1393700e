/**
 * `luma mcp FILE` runs served agent methods with the host of a `luma FILE` run
 * (programHostOf): `env(name)` reads the server's environment, `calls(tool)` counts the
 * handler's runs, and a tool needing approval inside a served method asks the calling client
 * (elicitation), as the same tool served on its own does.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectLuma, tempDir, textJson, type StdioSession } from "./mcp-harness";

setDefaultTimeout(30_000);

const dir = tempDir();
writeFileSync(
  join(dir, "tools.ts"),
  `export const save_note = (i: { text: string }) => ({ id: "n-" + i.text.length, text: i.text });
export const lookup = (i: { key: string }) => ({ value: i.key.toUpperCase() });
`,
);
writeFileSync(
  join(dir, "main.luma"),
  `schema Note { id: string  text: string }
schema Found { value: string }
tool save_note(text: string) -> Note { side_effects: "write" }
tool lookup(key: string) -> Found { side_effects: "read" }

agent Notes {
  tools: [save_note, lookup]
  tool_policy: "approval"

  fn keep(text: string) -> Note {
    return tool save_note({text: text})
  }

  fn greeting() -> string {
    g = env("GREETING")
    return "{g}"
  }

  fn looked_up(key: string) -> string {
    found = tool lookup({key: key})
    again = tool lookup({key: key})
    n = calls("lookup")
    return "{again.value} after {n} lookups"
  }
}

agent Front {
  fn note(text: string) -> Note {
    return Notes.keep(text)
  }
}
`,
);
const served = [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts")];

describe("luma mcp: served methods run with the host of a luma FILE run", () => {
  const asked: string[] = [];
  let s: StdioSession;
  beforeAll(async () => {
    s = await connectLuma(served, {
      env: { GREETING: "Hello" },
      onElicit: (message) => {
        asked.push(message);
        return { action: "accept", content: { approve: true } };
      },
    });
  });
  afterAll(() => s.close());

  test("env(name) reads the server's environment", async () => {
    const r = await s.client.callTool({ name: "Notes.greeting", arguments: {} });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ result: "Hello" });
  });

  test("calls(tool) counts the handler's runs", async () => {
    const r = await s.client.callTool({ name: "Notes.looked_up", arguments: { key: "ab" } });
    expect(r.structuredContent).toEqual({ result: "AB after 2 lookups" });
  });

  test("a tool needing approval inside a served method asks the client; accepted, it runs", async () => {
    const r = await s.client.callTool({ name: "Notes.keep", arguments: { text: "ok" } });
    expect(r.isError ? textJson(r) : r.structuredContent).toEqual({ id: "n-2", text: "ok" });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("save_note");
  });

  test("… also inside another agent's method the served one calls", async () => {
    const r = await s.client.callTool({ name: "Front.note", arguments: { text: "abc" } });
    expect(r.isError ? textJson(r) : r.structuredContent).toEqual({ id: "n-3", text: "abc" });
    expect(asked).toHaveLength(2);
  });
});

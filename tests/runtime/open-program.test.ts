/**
 * openProgram owns what it opens (runtime/open-program.ts): a start-up that fails half-way
 * releases what was already opened, once, and reports its own error (not a SuppressedError);
 * a run that ends releases everything once. The `mcp:` tool source is plugged in by the
 * caller (openRemoteTools), so a stub stands in for the MCP client here.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LumaError } from "../../src/diagnostics/luma-error";
import { parse } from "../../src/syntax/parse";
import { openProgram } from "../../src/runtime/start-program";
import type { OpenRemoteTools } from "../../src/runtime/tools/registry";

/** What the stub MCP source serves: a handler for the program's one `mcp:` tool. */
const served = () => new Map([["search", { value: async () => ({ hits: [] }), module: "mcp:local" }]]);

const SOURCE = `schema Hits { hits: string[] }
tool search(q: string) -> Hits { mcp: "local"  side_effects: "read" }
print("hi")
`;

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "luma-open-program-"));
  const file = join(dir, "main.luma");
  writeFileSync(file, SOURCE);
  const program = parse(SOURCE, file).program!;
  const events: string[] = [];
  const openRemoteTools: OpenRemoteTools = async () => {
    events.push("remote opened");
    return { handlers: served(), notOffered: new Map(), close: async () => void events.push("remote closed") };
  };
  const opts = {
    file, toolModules: [], cwd: dir, env: { LUMA_NO_CACHE: "1" }, interactive: false,
    stdout: () => {}, stderr: () => {}, sourceOf: () => SOURCE, openRemoteTools,
  };
  return { program, opts, events };
}

describe("openProgram owns its resources", () => {
  test("a start-up that fails after the registry opened closes the tool source once, and throws its own error", async () => {
    const { program, opts, events } = setup();
    // An invalid --run-id fails at the journal, the last start-up step: everything before it is open.
    const failure = await openProgram(program, { ...opts, runId: "not a run id!" }).catch((e) => e);
    expect(failure).toBeInstanceOf(LumaError);
    expect((failure as LumaError).message).toContain("not a run id!");
    expect(events).toEqual(["remote opened", "remote closed"]);
  });

  test("a started program's close releases the tool source once, also when called again", async () => {
    const { program, opts, events } = setup();
    const open = await openProgram(program, opts);
    expect(events).toEqual(["remote opened"]);
    await open.close();
    await open.close();
    expect(events).toEqual(["remote opened", "remote closed"]);
  });

  test("a release that fails is thrown as it is, not wrapped in a SuppressedError", async () => {
    const { program, opts, events } = setup();
    const broken = new Error("remote close failed");
    const open = await openProgram(program, {
      ...opts,
      openRemoteTools: async () => ({ handlers: served(), notOffered: new Map(), close: async () => { events.push("remote close failing"); throw broken; } }),
    });
    expect(await open.close().catch((e) => e)).toBe(broken);
    expect(events).toEqual(["remote close failing"]);
  });
});

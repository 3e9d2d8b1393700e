/**
 * Issue #23 §3: one record per provider family (src/runtime/providers/<family>/), one table
 * (families.ts) keyed by the names of src/language/provider-families.ts. What the record says
 * must be what the family does: its scripted answers (`luma test`) are read by its own
 * adapter, with the usage its reader counts; its strict-schema subset is its adapter's.
 */
import { describe, expect, test } from "bun:test";
import { PROVIDER_NAMES } from "../../src/language/provider-families";
import { PROVIDERS } from "../../src/language/keys/model-keys";
import { adapterFor } from "../../src/runtime/providers/adapter-table";
import { PROVIDER_FAMILIES, telemetryNameOf } from "../../src/runtime/providers/families";
import { PROVIDER_DEFAULTS } from "../../src/runtime/providers/resolve-model";
import type { ScriptedTurn } from "../../src/runtime/providers/scripted-wire";

const families = Object.entries(PROVIDER_FAMILIES);
const wires = families.flatMap(([name, f]) => [
  { label: `${name}`, provider: f.name, api: undefined as "responses" | undefined, wire: f.wire },
  ...(f.responsesWire ? [{ label: `${name} (responses)`, provider: f.name, api: "responses" as const, wire: f.responsesWire }] : []),
]);

describe("the families table", () => {
  test("one record per provider name, in the names' order, each under its own name", () => {
    expect(Object.keys(PROVIDER_FAMILIES)).toEqual([...PROVIDER_NAMES]);
    expect(families.filter(([key, f]) => key !== f.name)).toEqual([]);
    expect([...PROVIDERS]).toEqual([...PROVIDER_NAMES]);
  });

  test("the defaults a model resolves with are the records'", () => {
    const fromRecords: Record<string, unknown> = Object.fromEntries(families.map(([name, f]) => [name, f.defaults]));
    expect(PROVIDER_DEFAULTS as Record<string, unknown>).toEqual(fromRecords);
  });

  test("the telemetry names are the records' (an unknown name is kept as is)", () => {
    expect(PROVIDER_NAMES.map(telemetryNameOf)).toEqual(["openai", "openai", "azure.ai.openai", "anthropic", "gcp.gemini", "mcp"]);
    expect(telemetryNameOf("elsewhere")).toBe("elsewhere");
  });

  test("an adapter carries its family's strict-schema subset", () => {
    for (const { provider, api } of wires) {
      const adapter = adapterFor({ provider, api });
      const subset = PROVIDER_FAMILIES[provider].strictSchema;
      expect([adapter.recursiveFormat, adapter.formatProblem, adapter.toolSchemaProblem]).toEqual([subset.recursiveFormat, subset.formatProblem, subset.toolSchemaProblem]);
    }
  });
});

describe.each(wires)("$label: the scripted wire format is what its adapter reads", ({ provider, api, wire }) => {
  const adapter = adapterFor({ provider, api });
  const calls: ScriptedTurn = { calls: [{ tool: "lookup", input: { q: "x" } }] };

  test("a tool-calling turn: the calls come back, counted with the family's usage reader", () => {
    const body = wire.scripted(calls, 0, "m", undefined);
    const result = adapter.parseResponse(body, 0);
    expect(result.toolCalls.map((c) => [c.name, c.args])).toEqual([["lookup", { q: "x" }]]);
    expect(result.finish).toBe("tool_calls");
    // A sampling answer (provider "mcp") carries no token counts: its reader knows none.
    expect(result.usage).toEqual(provider === "mcp" ? {} : { input: 10, output: 5 });
  });

  test("an answer turn: its text comes back", () => {
    const result = adapter.parseResponse(wire.scripted({ answer: 1 }, 1, "m", '{"value":1}'), 1);
    expect([result.text, result.finish, result.toolCalls]).toEqual(['{"value":1}', "stop", []]);
  });
});

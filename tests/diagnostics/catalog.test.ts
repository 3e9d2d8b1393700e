/**
 * The diagnostic catalog (`src/diagnostics/catalog/`): every code is unique, in its
 * stage's range, documented (title, explanation, example); every check message has a code
 * the catalog explains; and each check code's example really produces that code.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check } from "../../src/check";
import { EXACT_CODES, MESSAGE_CODES } from "../../src/check/messages";
import { allCatalogEntries, catalogEntry } from "../../src/diagnostics/catalog";
import { checkCodes } from "../../src/diagnostics/catalog/check-codes";
import { configCodes } from "../../src/diagnostics/catalog/config-codes";
import { moduleCodes } from "../../src/diagnostics/catalog/module-codes";
import { runtimeCodes } from "../../src/diagnostics/catalog/runtime-codes";
import { startupCodes } from "../../src/diagnostics/catalog/startup-codes";
import { mcpServeCodes } from "../../src/diagnostics/catalog/mcp-serve-codes";
import { ERROR_CODES } from "../../src/diagnostics/luma-error";
import { parse } from "../../src/syntax/parse";

const entries = allCatalogEntries();

describe("catalog: stable codes, one catalog", () => {
  test("every code is unique", () => {
    const seen = new Set<string>();
    const twice = entries.map((e) => e.code).filter((c) => (seen.has(c) ? true : (seen.add(c), false)));
    expect(twice).toEqual([]);
  });

  test("every code is documented: a title, an explanation and an example (a retired code: no example triggers it)", () => {
    const undocumented = entries.filter((e) => !e.title.trim() || !e.explanation.trim() || (!e.example?.trim() && !e.retired)).map((e) => e.code);
    expect(undocumented).toEqual([]);
  });

  test("codes are E01xx–E19xx or a spec runtime code in SCREAMING_SNAKE", () => {
    const bad = entries.map((e) => e.code).filter((c) => !/^E(0[1-9]|1\d)\d\d$/.test(c) && !/^[A-Z]+(_[A-Z]+)+$/.test(c));
    expect(bad).toEqual([]);
  });

  test("lookup is case-insensitive", () => {
    expect(catalogEntry("e0201")?.code).toBe("E0201");
    expect(catalogEntry("tool_timeout")?.code).toBe("TOOL_TIMEOUT");
  });
});

describe("catalog: every check message has a code the catalog explains", () => {
  const used = [...Object.values(MESSAGE_CODES), ...Object.values(EXACT_CODES)];

  // E02xx is full: the many-agents rules (issue #27) are E11xx, `parallel`'s E12xx and `eval`'s E14xx, joined in check-codes.ts.
  test("each check message's code is an E02xx, E11xx, E12xx or E14xx catalog entry", () => {
    expect(used.filter((c) => !/^E(02|11|12|14)\d\d$/.test(c) || !catalogEntry(c))).toEqual([]);
  });

  test("no two check messages share a code", () => {
    expect(new Set(used).size).toBe(used.length);
  });

  test("every E02xx catalog entry belongs to a check message", () => {
    expect(checkCodes.map((e) => e.code).filter((c) => !used.includes(c))).toEqual([]);
  });
});

/** Names the examples may lean on without declaring them. */
const PRELUDE = `
schema Out { ok: bool }
schema Row { id: int }
model M { provider: "openai", name: "x" }
datasource Db { url: "sqlite::memory:" }
tool calculate(a: float, b: float) -> Out {}
`;

describe("catalog: each check code's example produces that code", () => {
  for (const entry of checkCodes) {
    test(`${entry.code} ${entry.title}`, () => {
      const parsed = parse(`${PRELUDE}\n${entry.example}\n`, "example.luma");
      expect(parsed.diagnostics.map((d) => d.message)).toEqual([]);
      expect(check(parsed.program!).map((d) => d.code)).toContain(entry.code);
    });
  }
});

/**
 * The runtime codes src/ throws, read from its error constructions: a `code: "X"` field (a
 * LumaError's or LumaToolError's init — the MCP bridge's codes are only these), or the code
 * argument of `runtimeError("X", …)` and datasource-errors' `fail(s, "X", …)`. Comment lines
 * are skipped: a doc example's `code: "DB_TIMEOUT"` is a user's code, not Luma's.
 */
const SRC = join(import.meta.dir, "..", "..", "src");
const thrownCodes = (): string[] => {
  const code = readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts") && !f.startsWith("diagnostics/catalog/"))
    .map((f) => readFileSync(join(SRC, f), "utf8").split("\n").filter((l) => !/^\s*(\*|\/\*|\/\/)/.test(l)).join("\n"));
  const CODE = String.raw`"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"`;
  const sites = new RegExp(String.raw`(?:\bcode:\s*|\bruntimeError\(\s*|\bfail\(\s*\w+,\s*)${CODE}`, "g");
  return [...new Set(code.flatMap((text) => [...text.matchAll(sites)].map((m) => m[1]!)))].sort();
};

describe("catalog: every runtime code is explained", () => {
  test("every error code thrown anywhere in src/ has a catalog entry (`luma explain CODE` knows it)", () => {
    const thrown = thrownCodes();
    // The reader finds the sites: spec codes and the MCP bridge's own.
    for (const c of ["RUNTIME_ERROR", "TOOL_TIMEOUT", "QUERY_ROW_INVALID", "TOOL_UNAVAILABLE", "MCP_ERROR", "MCP_TOOL_ERROR"]) expect(thrown).toContain(c);
    expect(thrown.filter((c) => !catalogEntry(c))).toEqual([]);
  });

  test("runtime-codes.ts lists exactly the ErrorCode values of luma-error.ts and the codes src/ throws", () => {
    expect(runtimeCodes.map((e) => e.code).sort()).toEqual([...new Set([...ERROR_CODES, ...thrownCodes()])].sort());
  });
});

/**
 * Startup errors name their code where they are made (`catalogCode: "E0601"`); the type of
 * `startupError` requires one. This reads the sources to keep those codes and the catalog
 * in step both ways: no code without an explanation, no explanation nothing raises.
 */
describe("catalog: startup error codes (E04xx–E06xx) match the sources", () => {
  const sources = readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts") && !f.includes("catalog"))
    .map((f) => readFileSync(join(SRC, f), "utf8"));
  const raised = new Set(sources.flatMap((text) => [...text.matchAll(/"(E0[4-6]\d\d)"/g)].map((m) => m[1])));
  // luma mcp's start-up settings have E0680–E0689, in a file of their own (mcp-serve-codes.ts).
  const documented = [...configCodes, ...moduleCodes, ...startupCodes, ...mcpServeCodes].filter((e) => !("retired" in e)).map((e) => e.code);

  test("every code a startup error carries is in the catalog", () => {
    expect([...raised].filter((c) => !documented.includes(c))).toEqual([]);
  });

  test("every E04xx–E06xx catalog entry is raised somewhere (a retired one: nowhere)", () => {
    expect(documented.filter((c) => !raised.has(c))).toEqual([]);
  });

  test("each stage's file holds only its own range", () => {
    const inRange = (list: { code: string }[], prefix: string) => list.every((e) => e.code.startsWith(prefix));
    const checkRange = checkCodes.every((e) => /^E(02|11|12|14)/.test(e.code));
    expect([checkRange, inRange(configCodes, "E04"), inRange(moduleCodes, "E05"), inRange(startupCodes, "E06")]).toEqual([
      true, true, true, true,
    ]);
  });
});

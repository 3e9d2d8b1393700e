/**
 * Every *exact* message the reference states (docs/language/tools.md, docs/security.md,
 * docs/pipeline.md — from the original tool-system spec), byte for byte, through the built binary.
 * (The rules behind them are tested in depth in tests/check and tests/pipeline.)
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const R = "schema R { ok: bool }\n";

function run(source: string, env: Record<string, string> = {}, module = "") {
  const dir = mkdtempSync(join(tmpdir(), "luma-exact-"));
  writeFileSync(join(dir, "app.luma"), source);
  const args = ["app.luma"];
  if (module) {
    writeFileSync(join(dir, "t.ts"), module);
    args.push("--tool-module", "t.ts");
  }
  return runLuma(args, { cwd: dir, env });
}

describe("§4 consistency rules (check errors, exit 2)", () => {
  test.each([
    [`tool x(a: int) -> R { side_effects: "write"  cache: true }`, "E0225", "Write tool 'x' cannot use cache."],
    [`tool x(a: int) -> R { side_effects: "write"  retries: 2 }`, "E0226", "A write tool 'x' must be idempotent and specify an idempotency_key to be retried."],
    [`tool x(a: int) -> R { idempotent: true }`, "E0227", "Idempotent tool 'x' must specify an idempotency_key."],
    [`tool x(a: int) -> R { timeout: 0 }`, "E0228", "Tool 'x' timeout must be greater than zero."],
  ])("%s", (decl, code, message) => {
    const r = run(R + decl + "\n");
    expect(r.exitCode).toBe(2);
    // The code sits in the label; the message after it is the spec's, byte for byte.
    expect(r.stderr.split("\n")[0]).toEndWith(`: error[${code}]: ${message}`);
  });
});

describe("§7 agent rules (check errors, exit 2)", () => {
  test("Agent 'A' does not allow tool 'x' to be called directly.", () => {
    const r = run(`${R}tool x(a: int) -> R {}\nagent A {\n  fn go() -> R { tool x({ a: 1 }) }\n}\n`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0250]: Agent 'A' does not allow tool 'x' to be called directly.\n");
  });

  test("Agent 'A' does not allow the tool 'calculate' required by using tool.", () => {
    const src = `${R}schema CalcResult { result: float }
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}
model M { provider: "openai"  name: "gpt-5.4-mini" }
agent A {
  model: M
  fn go() -> R { ask "x" -> R using tool calculate }
}
`;
    const r = run(src);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0249]: Agent 'A' does not allow the tool 'calculate' required by using tool.\n");
  });
});

describe("§8 policy messages (TOOL_PERMISSION_DENIED, caught)", () => {
  const writeTool = `${R}tool db_write(table: string) -> R {
  side_effects: "write"
  scope: "db:write"
  credential: "DB_PASSWORD"
}
`;
  const module = "export const db_write = () => ({ ok: true });\n";

  test("Tool 'db_write' is missing credential: DB_PASSWORD.", () => {
    const r = run(writeTool + 'try { tool db_write({ table: "t" }) } catch e { print(e.code, e.message) }\n', {}, module);
    expect(r.stdout).toBe("TOOL_PERMISSION_DENIED Tool 'db_write' is missing credential: DB_PASSWORD.\n");
  });

  test("Tool 'db_write' scope access was denied: db:write.", () => {
    const src = writeTool + `agent Writer {
  tools: [db_write]
  tool_scopes: ["db:read"]
  fn go() -> R { tool db_write({ table: "t" }) }
}
try { Writer.go() } catch e { print(e.code, e.message) }
`;
    const r = run(src, { DB_PASSWORD: "canary-secret-value" }, module);
    expect(r.stdout).toBe("TOOL_PERMISSION_DENIED Tool 'db_write' scope access was denied: db:write.\n");
    expect(r.stdout + r.stderr).not.toContain("canary-secret-value");
  });
});

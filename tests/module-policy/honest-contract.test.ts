/**
 * End to end, through the built `dist/luma`: the honest contract of spec §10 — strict is a
 * contract check, not isolation — and what a refusal looks like to a user.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { project } from "./strict-project";

const STRICT_CONFIG = JSON.stringify({
  tool_modules: ["./scan.ts"],
  tool_module_policy: { sandbox: "strict", allow_builtins: ["crypto"], allow_env: false, allow_network: false, max_concurrency: 2 },
});

/** The seed's module, byte for byte: it names nothing the lint looks for, and spawns a process. */
const SEED_SCAN_MODULE = 'export const scan = () => ({ count: Bun.spawnSync(["id", "-u"]).stdout.toString().trim().length });\n';

const SCAN_PROGRAM = `schema ScanResult { count: int }
tool scan() -> ScanResult {}
r = tool scan({})
print("spawned, output length", r.count)
`;

describe("§10 the honest contract: strict is a contract check, not an isolation boundary", () => {
  test("the seed's Bun.spawnSync module passes every strict check and runs (a process is spawned)", () => {
    const dir = project({ "luma.config.json": STRICT_CONFIG, "scan.ts": SEED_SCAN_MODULE, "main.luma": SCAN_PROGRAM });
    const r = runLuma([join(dir, "main.luma")]);
    const uid = Bun.spawnSync(["id", "-u"]).stdout.toString().trim();
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`spawned, output length ${uid.length}\n`);
    expect(r.exitCode).toBe(0);
  });

  test("without a tool_module_policy block there is no sandbox: a module reads process.env", () => {
    const dir = project({
      "luma.config.json": JSON.stringify({ tool_modules: ["./env.cjs"] }),
      "env.cjs": "module.exports = { read_env: () => ({ value: process.env.LUMA_POLICY_E2E_SECRET_PROBE, fetch: typeof fetch }) };",
      "main.luma": "schema EnvValue { value: string  fetch: string }\ntool read_env() -> EnvValue {}\nr = tool read_env({})\nprint(r.value, r.fetch)\n",
    });
    const r = runLuma([join(dir, "main.luma")], { env: { LUMA_POLICY_E2E_SECRET_PROBE: "not-a-secret-123" } });
    expect(r.stdout).toBe("not-a-secret-123 function\n");
    expect(r.exitCode).toBe(0);
  });
});

describe("§10 a refused module stops the program before any statement runs (exit code 2)", () => {
  test("every violation is listed, one line each, and nothing of the program ran", () => {
    const dir = project({
      "luma.config.json": STRICT_CONFIG.replace("./scan.ts", "./bad.cjs"),
      "bad.cjs": [
        'const cp = require("child_process");',
        'const fs = require("fs");',
        "module.exports = { scan: () => ({ count: process.env.X.length }) };",
        "// eval is mentioned here",
      ].join("\n"),
      "main.luma": 'print("this must not print")\n' + SCAN_PROGRAM,
    });
    const r = runLuma([join(dir, "main.luma")]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        `Error: Tool module './bad.cjs' was refused: 1:20 [child_process] loads 'child_process' (child_process is always forbidden under strict)`,
        `Tool module './bad.cjs' was refused: 2:20 [allow_builtins] loads builtin 'fs', which is not in "allow_builtins"`,
        `Tool module './bad.cjs' was refused: 3:42 [allow_env] mentions 'process' ("allow_env" is false)`,
        `Tool module './bad.cjs' was refused: 4:4 [dynamic_code] uses 'eval' (dynamic code is always forbidden under strict)`,
        "  = code E0505 (luma explain E0505)",
        "",
      ].join("\n"),
    );
  });

  test("a --tool-module outside the project directory is refused under strict", () => {
    const root = project({ "outside/scan.ts": SEED_SCAN_MODULE, "proj/luma.config.json": STRICT_CONFIG.replace('"./scan.ts"', ""), "proj/main.luma": SCAN_PROGRAM });
    const r = runLuma([join(root, "proj/main.luma"), "--tool-module", join(root, "outside/scan.ts")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `Error: Tool module '${join(root, "outside/scan.ts")}' was refused: [project_dir] the module resolves to ${join(root, "outside/scan.ts")}, outside the project directory ${join(root, "proj")}\n  = code E0505 (luma explain E0505)\n`,
    );
  });
});

describe("§10 max_memory_mb is accepted and recorded, not enforced", () => {
  test("a one-line notice on stderr says so, and the program runs", () => {
    const config = JSON.stringify({ tool_modules: ["./scan.ts"], tool_module_policy: { sandbox: "strict", max_memory_mb: 64 } });
    const dir = project({ "luma.config.json": config, "scan.ts": SEED_SCAN_MODULE, "main.luma": SCAN_PROGRAM });
    const r = runLuma([join(dir, "main.luma")]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("notice: luma.config.json: tool_module_policy.max_memory_mb (64) is recorded but not enforced: tool modules run inside the luma process.\n");
  });
});

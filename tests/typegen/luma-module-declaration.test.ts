/**
 * The `"luma"` module's declaration (src/typegen/luma-module-declaration.ts, written by `luma
 * init` as `luma.d.ts`) cannot drift from `src/luma-module.ts`: `tsc --strict` compiles it
 * beside the real module and a file of type equalities — the init type, the handler context
 * and signatures, the constructor's parameters, the guard and the list of values the virtual
 * module serves must be the same on both sides.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LUMA_MODULE_DECLARATION } from "../../src/typegen/luma-module-declaration";

const REPO = resolve(import.meta.dir, "../..");
const TSC = join(REPO, "node_modules/.bin/tsc");
const dir = mkdtempSync(join(tmpdir(), "luma-module-declaration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DRIFT = `import type * as declared from "luma";
import type * as real from "${REPO}/src/luma-module";
import type { lumaModuleExports } from "${REPO}/src/runtime/module-loading/luma-virtual-module";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<A, B> = Equal<A, B> extends true ? true : { differs: [A, B] };

export const checks: true[] = [
  true as Same<declared.LumaToolErrorInit, real.LumaToolErrorInit>,
  true as Same<declared.HandlerContext, real.HandlerContext>,
  true as Same<declared.ToolHandler, real.ToolHandler>,
  true as Same<declared.DatasourceBridge, real.DatasourceBridge>,
  true as Same<ConstructorParameters<typeof declared.LumaToolError>, ConstructorParameters<typeof real.LumaToolError>>,
  true as Same<Parameters<typeof declared.isLumaToolError>, Parameters<typeof real.isLumaToolError>>,
  // The values the module declares are the values the runtime serves.
  true as Same<keyof typeof import("luma"), keyof typeof lumaModuleExports>,
];
// Every member the declared class shows, the real one has, with the same type.
export const sameMembers: Pick<real.LumaToolError, keyof declared.LumaToolError> = {} as declared.LumaToolError;
export const realFits: declared.LumaToolError = {} as real.LumaToolError;
`;

function tsc(files: Record<string, string>): { exitCode: number; output: string } {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const config = {
    extends: join(REPO, "tsconfig.json"),
    compilerOptions: { typeRoots: [join(REPO, "node_modules/@types")], noEmit: true, strict: true },
    files: Object.keys(files).map((f) => join(dir, f)),
    // Not the base config's `include` (src, tests, bench: a thousand files, most of the run's
    // time): these files and what they import are the program. `bun run typecheck` checks the rest.
    include: [],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
  const r = Bun.spawnSync([TSC, "-p", join(dir, "tsconfig.json")], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  return { exitCode: r.exitCode ?? -1, output: r.stdout.toString() + r.stderr.toString() };
}

describe('the "luma" module declaration matches src/luma-module.ts', () => {
  // One tsc run (it is slow on a loaded machine): the declaration as written, and a drifted
  // copy under another module name, each with its own file of equalities.
  test("tsc --strict finds the two the same, and finds a drifted copy different", () => {
    const drifted = LUMA_MODULE_DECLARATION.replace("    attempt: number;\n", "    attempt: number;\n    tenant: string;\n").replace('declare module "luma"', 'declare module "luma-drifted"');
    expect(drifted).toContain("tenant: string;");
    const r = tsc({
      "luma.d.ts": LUMA_MODULE_DECLARATION,
      "drift.ts": DRIFT,
      "drifted.d.ts": drifted,
      "bite.ts": DRIFT.replaceAll('"luma"', '"luma-drifted"'),
    });
    const errorFiles = [...new Set([...r.output.matchAll(/^(\S+?)\(\d+,\d+\): error/gm)].map((m) => m[1].split("/").pop()))];
    expect({ errorFiles, output: r.output.includes("error") ? "" : r.output }).toEqual({ errorFiles: ["bite.ts"], output: "" });
  }, 240_000);
});

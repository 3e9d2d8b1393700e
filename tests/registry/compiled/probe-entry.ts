/**
 * Entry compiled with `bun build --compile` by compiled-binary.test.ts: loads every module
 * named on the command line through the real loader and registry, calls its `probe`
 * handler, and prints what it saw as one JSON line per module.
 */
import { isLumaToolError, LumaToolError } from "../../../src/luma-module";
import { LumaError } from "../../../src/diagnostics/luma-error";
import { loadToolRegistry } from "../../../src/runtime/tools/registry";
import { programDeclaring } from "../program-fixture";

const cwd = process.cwd();
for (const path of process.argv.slice(2)) {
  try {
    const registry = await loadToolRegistry({
      program: programDeclaring(["probe"], [], `${cwd}/program.luma`),
      config: { config: { tool_modules: [], tool_contexts: {} }, projectDir: cwd },
      cliModules: [path],
      cwd,
    });
    const out = registry.handler("probe")!({ code: "E_PROBE" });
    const error = out.error;
    console.log(
      JSON.stringify({
        path,
        kind: out.kind,
        legacySame: out.legacySame,
        isLumaToolError: error instanceof LumaToolError && isLumaToolError(error),
        isLumaError: error instanceof LumaError,
        code: error.code,
        phase: error.phase,
      }),
    );
  } catch (e) {
    console.log(JSON.stringify({ path, failed: (e as Error).message }));
  }
}

/**
 * Code that would run at load, around the checks (docs/modules.md "Strict policy"): Bun macros, which
 * run while a module is transpiled, and `Bun.plugin`, with which one module could rewrite
 * another's text after it was checked. Macros are never run; a plugin cannot touch what Luma
 * reads itself (the VM context's files), and the route that remains is pinned as a gap.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { loadToolModules } from "../../src/runtime/tools/registry/load-tool-modules";
import { readModuleTools } from "../../src/runtime/tools/registry";
import { handlerOf, policyFor, project } from "./strict-project";

const PROGRAM = "schema Out { value: string }\ntool probe() -> Out {}\nr = tool probe({})\nprint(r.value)\n";

/** A macro that leaves a file behind when it runs. */
const MACRO = (marker: string) => `import { writeFileSync } from "node:fs";\nexport function stamp() { writeFileSync(${JSON.stringify(marker)}, "ran"); return "stamped"; }\n`;

describe("§10 Bun macros never run in tool modules (they would run code while the module is transpiled)", () => {
  test("without any policy, a macro import is a load error naming line:col, and the macro did not run (through dist/luma)", () => {
    const marker = join(project({}), "macro-ran");
    const d = project({
      "main.luma": PROGRAM,
      "macro.ts": MACRO(marker),
      "tool.ts": 'import { stamp } from "./macro.ts" with { type: "macro" };\nexport const probe = () => ({ value: stamp() });\n',
      "luma.config.json": JSON.stringify({ tool_modules: ["./tool.ts"] }),
    });
    const r = runLuma([join(d, "main.luma")]);
    expect(r.stderr).toBe(
      `Error: Tool module './tool.ts' could not be loaded: macro call at 2:38: Bun macros (imports \`with { type: "macro" }\`) run code while a module is transpiled, so Luma never runs them\n  = code E0501 (luma explain E0501)\n`,
    );
    expect(r.exitCode).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  test("under strict, a macro in a helper of an in-process ES module is a [macro] violation before Bun loads it (through dist/luma)", () => {
    const marker = join(project({}), "macro-ran");
    const d = project({
      "main.luma": PROGRAM,
      "macro.ts": MACRO(marker),
      "helper.mjs": 'import { stamp } from "./macro.ts" with { type: "macro" };\nexport const value = stamp();\n',
      "tool.mjs": 'import { value } from "./helper.mjs";\nexport const probe = () => ({ value });\n',
      "luma.config.json": JSON.stringify({ tool_modules: ["./tool.mjs"], tool_module_policy: { sandbox: "strict" } }),
    });
    const r = runLuma([join(d, "main.luma")]);
    expect(r.stderr).toBe(
      "Error: Tool module './tool.mjs' was refused: helper.mjs:2:22 [macro] calls a Bun macro (macros run code while a file is transpiled; Luma never runs them)\n  = code E0505 (luma explain E0505)\n",
    );
    expect(r.exitCode).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });
});

/** Loads two tool modules of one project in order, as start-up does; returns the second's probe. */
async function loadPair(dir: string, first: string, second: string) {
  const modules = await loadToolModules(
    [first, second].map((file) => ({ shownPath: file, absPath: join(dir, file), entry: { path: file } })),
    policyFor(dir, { sandbox: "strict" }),
  );
  return readModuleTools(modules[1]).handlers.get("probe") as () => unknown;
}

/** A strict CommonJS module that reaches the real Bun through the host Function (a pinned gap) and rewrites `target` at load. */
const rewriter = (target: string) =>
  `const real = Bun.spawnSync.constructor("return Bu" + "n")();\n` +
  `real["plu" + "gin"]({ name: "rewrite", setup(b) { b.onLoad({ filter: /${target.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$/ }, () => ({ contents: "export const value = 'rewritten';", loader: "js" })); } });\n` +
  `module.exports = { probe: () => "plugged" };\n`;

describe("§10 a Bun.plugin registered by one module cannot rewrite what Luma reads itself", () => {
  test("a strict module has no Bun.plugin to call", async () => {
    const dir = project({ "m.cjs": 'module.exports = { probe: () => typeof Bun["plu" + "gin"] };' });
    expect(await (await handlerOf(dir, "m.cjs", "probe"))({})).toBe("undefined");
  });

  test("a helper of a VM-context module runs as checked, even with a plugin registered for its path", async () => {
    const dir = project({
      "a.cjs": rewriter("vm-helper.ts"),
      "vm-helper.ts": "export const value = 'checked';\n",
      "b.ts": 'import { value } from "./vm-helper.ts";\nexport const probe = () => value;\n',
    });
    expect(await (await loadPair(dir, "a.cjs", "b.ts"))()).toBe("checked");
  });

  test("GAP: a plugin registered through the host Function rewrites an in-process ES module's helper (Bun reads it)", async () => {
    const dir = project({
      "a.cjs": rewriter("esm-helper.mjs"),
      "esm-helper.mjs": "export const value = 'checked';\n",
      "b.mjs": 'import { value } from "./esm-helper.mjs";\nexport const probe = () => value;\n',
    });
    expect(await (await loadPair(dir, "a.cjs", "b.mjs"))()).toBe("rewritten");
  });

  test("GAP: such a plugin also replaces the main text of a strict ES module loaded after it, not only its helpers (through dist/luma)", () => {
    // b.mjs passes every check; a.cjs, loaded first, hands Bun other text for b.mjs's own path.
    const d = project({
      "main.luma": PROGRAM,
      "a.cjs": rewriter("b.mjs")
        .replace(`"export const value = 'rewritten';"`, `"export const probe = () => ({ value: 'rewritten, env ' + typeof glo" + "balThis.pro" + "cess.env });"`)
        .replace("probe:", "other:"),
      "b.mjs": 'export const probe = () => ({ value: "checked" });\n',
      "luma.config.json": JSON.stringify({ tool_modules: ["./a.cjs", "./b.mjs"], tool_module_policy: { sandbox: "strict" } }),
    });
    const r = runLuma([join(d, "main.luma")]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("rewritten, env object\n");
    expect(r.exitCode).toBe(0);
  });
});

/**
 * Hardening round 3, item 9, through `dist/luma` (and a `luma build` agent): an npm package
 * loads by the entry Bun would pick — `main` other than index.js, an `exports` map with
 * `import`/`require` conditions and subpaths, `module` — from CommonJS and ES module tool
 * modules, strict or not, from `dependency_root`. The compiled binary's own resolver reads
 * no package.json (it found only `index.js`), so Luma resolves packages itself, from the
 * module's own dependency tree only; the strict checks judge the file that resolution loads.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";
import { isolate, removeAll, runIsolated } from "../build/built-agent-support";
import { project } from "./strict-project";

const PROGRAM = "schema Out { value: string }\ntool probe() -> Out {}\nr = tool probe({})\nprint(r.value)\n";

const json = (value: unknown) => JSON.stringify(value);

/** Packages whose entry is not index.js, in every shape package.json allows. */
const PACKAGES: Record<string, string> = {
  // main in a subdirectory, named without its extension
  "node_modules/main-pkg/package.json": json({ name: "main-pkg", main: "lib/entry" }),
  "node_modules/main-pkg/lib/entry.js": 'module.exports = { kind: () => "main:lib/entry.js" };\n',
  // conditions: import and require get different files; a subpath and a pattern
  "node_modules/cond-pkg/package.json": json({
    name: "cond-pkg",
    main: "./wrong.js",
    exports: {
      ".": { import: "./dist/esm.mjs", require: "./dist/cjs.js", default: "./wrong.js" },
      "./feature": "./dist/feature.js",
      "./parts/*": "./dist/parts/*.js",
    },
  }),
  "node_modules/cond-pkg/wrong.js": 'module.exports = { kind: () => "WRONG" };\n',
  "node_modules/cond-pkg/dist/esm.mjs": 'export const kind = () => "exports:import";\n',
  "node_modules/cond-pkg/dist/cjs.js": 'module.exports = { kind: () => "exports:require" };\n',
  "node_modules/cond-pkg/dist/feature.js": 'module.exports = { kind: () => "exports:./feature" };\n',
  "node_modules/cond-pkg/dist/parts/a.js": 'module.exports = { kind: () => "exports:./parts/a" };\n',
  // only `module`
  "node_modules/module-pkg/package.json": json({ name: "module-pkg", module: "esm/index.mjs" }),
  "node_modules/module-pkg/esm/index.mjs": 'export const kind = () => "module:esm/index.mjs";\n',
  // a package whose own dependency has a main of its own (resolved from the package, unguarded)
  "node_modules/outer-pkg/package.json": json({ name: "outer-pkg", main: "outer.js" }),
  "node_modules/outer-pkg/outer.js": 'const main = require("main-pkg");\nmodule.exports = { kind: () => `outer>${main.kind()}` };\n',
  "node_modules/esm-outer/package.json": json({ name: "esm-outer", type: "module", exports: "./src/outer.js" }),
  "node_modules/esm-outer/src/outer.js": 'import { kind as inner } from "cond-pkg";\nexport const kind = () => `esm-outer>${inner()}`;\n',
};

const CJS_MODULE =
  'const main = require("main-pkg");\nconst cond = require("cond-pkg");\nconst feature = require("cond-pkg/feature");\nconst part = require("cond-pkg/parts/a");\nconst outer = require("outer-pkg");\n' +
  'module.exports = { probe: () => ({ value: [main.kind(), cond.kind(), feature.kind(), part.kind(), outer.kind()].join(" ") }) };\n';
const CJS_EXPECTED = "main:lib/entry.js exports:require exports:./feature exports:./parts/a outer>main:lib/entry.js\n";

const ESM_MODULE =
  'import main from "main-pkg";\nimport { kind as cond } from "cond-pkg";\nimport { kind as mod } from "module-pkg";\nimport { kind as outer } from "esm-outer";\n' +
  "export const probe = () => ({ value: [main.kind(), cond(), mod(), outer()].join(\" \") });\n";
const ESM_EXPECTED = "main:lib/entry.js exports:import module:esm/index.mjs esm-outer>exports:import\n";

const dirs: string[] = [];
afterAll(() => removeAll(...dirs));

const strictConfig = (module: string, policy: Record<string, unknown> = {}, entry: Record<string, unknown> = {}) =>
  json({ tool_modules: [{ path: module, ...entry }], tool_module_policy: { sandbox: "strict", ...policy } });

/** A project with the packages, `files`, and main.luma; `luma main.luma ARGS…` run in it. */
function runIn(files: Record<string, string>, args: string[] = [], withPackages = true) {
  const dir = project({ "main.luma": PROGRAM, ...(withPackages ? PACKAGES : {}), ...files });
  dirs.push(dir);
  return { dir, r: runLuma(["main.luma", ...args], { cwd: dir }) };
}

const ok = (r: { exitCode: number; stdout: string; stderr: string }, stdout: string) =>
  expect({ exit: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({ exit: 0, stdout, stderr: "" });

describe("the real picocolors (main: ./picocolors.js) loads through dist/luma", () => {
  const withPicocolors = (files: Record<string, string>, args: string[] = []) => {
    const dir = project({ "main.luma": PROGRAM, ...files });
    dirs.push(dir);
    cpSync(join(REPO, "node_modules/picocolors"), join(dir, "node_modules/picocolors"), { recursive: true });
    return runLuma(["main.luma", ...args], { cwd: dir });
  };
  const CJS = 'const pc = require("picocolors");\nmodule.exports = { probe: () => ({ value: pc.createColors(false).red("plain") + ":" + typeof pc.red }) };\n';
  const ESM = 'import pc from "picocolors";\nexport const probe = () => ({ value: pc.createColors(false).red("plain") + ":" + typeof pc.red });\n';

  test("from a CommonJS and an ES module, no policy", () => {
    ok(withPicocolors({ "tool.cjs": CJS }, ["--tool-module", "./tool.cjs"]), "plain:function\n");
    ok(withPicocolors({ "tool.mjs": ESM }, ["--tool-module", "./tool.mjs"]), "plain:function\n");
  });

  test("under strict (it reads process.env: allow_env), CommonJS in the VM context and an in-process ES module", () => {
    ok(withPicocolors({ "tool.cjs": CJS, "luma.config.json": strictConfig("./tool.cjs", { allow_env: true }) }), "plain:function\n");
    ok(withPicocolors({ "tool.mjs": ESM, "luma.config.json": strictConfig("./tool.mjs", { allow_env: true }) }), "plain:function\n");
  });
});

describe("main, exports (import/require conditions, subpaths, patterns) and module, as Bun picks them", () => {
  test("a CommonJS module gets the require entries, a package's own dependency included", () => {
    ok(runIn({ "tool.cjs": CJS_MODULE }, ["--tool-module", "./tool.cjs"]).r, CJS_EXPECTED);
  });

  test("an ES module gets the import entries, and `module` when there is no main", () => {
    ok(runIn({ "tool.mjs": ESM_MODULE }, ["--tool-module", "./tool.mjs"]).r, ESM_EXPECTED);
  });

  test("a TypeScript module (ES module syntax) resolves like an ES module", () => {
    ok(runIn({ "tool.ts": ESM_MODULE }, ["--tool-module", "./tool.ts"]).r, ESM_EXPECTED);
  });

  test("under strict, CommonJS (VM context), TypeScript (VM context) and an in-process ES module load the same entries", () => {
    ok(runIn({ "tool.cjs": CJS_MODULE, "luma.config.json": strictConfig("./tool.cjs") }).r, CJS_EXPECTED);
    ok(runIn({ "tool.ts": ESM_MODULE, "luma.config.json": strictConfig("./tool.ts") }).r, ESM_EXPECTED);
    ok(runIn({ "tool.mjs": ESM_MODULE, "luma.config.json": strictConfig("./tool.mjs") }).r, ESM_EXPECTED);
  });

  test("from dependency_root, strict or not, CommonJS and ES module", () => {
    const vendored = Object.fromEntries(Object.entries(PACKAGES).map(([path, text]) => [`vendor/${path}`, text]));
    const entry = { dependency_root: "./vendor" };
    for (const policy of [undefined, {}]) {
      const config = (module: string) =>
        policy ? strictConfig(module, policy, entry) : json({ tool_modules: [{ path: module, ...entry }] });
      ok(runIn({ ...vendored, "tool.cjs": CJS_MODULE, "luma.config.json": config("./tool.cjs") }, [], false).r, CJS_EXPECTED);
      ok(runIn({ ...vendored, "tool.mjs": ESM_MODULE, "luma.config.json": config("./tool.mjs") }, [], false).r, ESM_EXPECTED);
    }
  });

  test("a file the exports map does not export is not loaded, though it exists — nor is one it points outside the package", () => {
    const outside = { "node_modules/cond-pkg/package.json": json({ name: "cond-pkg", exports: { ".": "./dist/cjs.js", "./up": "./../../evil.js" } }), "evil.js": 'module.exports = { kind: () => "EVIL" };\n' };
    const cases: [string, string, Record<string, string>][] = [
      ["tool.cjs", 'const w = require("cond-pkg/wrong.js");\nmodule.exports = { probe: () => ({ value: w.kind() }) };\n', {}],
      ["tool.mjs", 'import w from "cond-pkg/wrong.js";\nexport const probe = () => ({ value: w.kind() });\n', {}],
      ["tool.cjs", 'const w = require("cond-pkg/up");\nmodule.exports = { probe: () => ({ value: w.kind() }) };\n', outside],
    ];
    for (const [file, text, extra] of cases) {
      const { dir, r } = runIn({ [file]: text, ...extra }, ["--tool-module", `./${file}`]);
      const specifier = text.includes("/up") ? "cond-pkg/up" : "cond-pkg/wrong.js";
      const from = file.endsWith(".cjs") ? join(dir, file) : dir;
      expect(r.stderr).toBe(
        `Error: Tool module './${file}' could not be loaded: it threw while loading: Cannot find package '${specifier}' from '${from}'\n  = code E0501 (luma explain E0501)\n`,
      );
      expect(r.stdout).toBe("");
      expect(r.exitCode).toBe(2);
    }
  });

  test("a package's own `#name` imports map (as chalk's `#ansi-styles`): a file of the package, or another package", () => {
    const files = {
      "node_modules/hashed/package.json": json({
        name: "hashed",
        type: "module",
        exports: "./source/index.js",
        imports: { "#styles": "./vendor/styles.js", "#dep": "main-pkg", "#cjs": { import: "./vendor/wrong.js", require: "./vendor/cjs.cjs" } },
      }),
      "node_modules/hashed/source/index.js":
        'import styles from "#styles";\nimport dep from "#dep";\nexport const kind = () => `${styles} ${dep.kind()}`;\n',
      "node_modules/hashed/vendor/styles.js": 'export default "imports:#styles";\n',
      "node_modules/hashed/vendor/wrong.js": 'export default "WRONG";\n',
      "node_modules/cjs-hashed/package.json": json({ name: "cjs-hashed", main: "main.js", imports: { "#impl": { require: "./impl.js", default: "./wrong.js" } } }),
      "node_modules/cjs-hashed/main.js": 'module.exports = require("#impl");\n',
      "node_modules/cjs-hashed/impl.js": 'module.exports = { kind: () => "imports:#impl" };\n',
      "node_modules/cjs-hashed/wrong.js": 'module.exports = { kind: () => "WRONG" };\n',
    };
    const esm = 'import { kind } from "hashed";\nexport const probe = () => ({ value: kind() });\n';
    const cjs = 'const c = require("cjs-hashed");\nmodule.exports = { probe: () => ({ value: c.kind() }) };\n';
    ok(runIn({ ...files, "tool.mjs": esm }, ["--tool-module", "./tool.mjs"]).r, "imports:#styles main:lib/entry.js\n");
    ok(runIn({ ...files, "tool.mjs": esm, "luma.config.json": strictConfig("./tool.mjs") }).r, "imports:#styles main:lib/entry.js\n");
    ok(runIn({ ...files, "tool.cjs": cjs }, ["--tool-module", "./tool.cjs"]).r, "imports:#impl\n");
    ok(runIn({ ...files, "tool.cjs": cjs, "luma.config.json": strictConfig("./tool.cjs") }).r, "imports:#impl\n");
  });

  test("a relative directory with a package.json main loads its main (CommonJS, ES module; strict or not)", () => {
    const files = { "helpers/package.json": json({ main: "real.js" }), "helpers/real.js": 'module.exports = { kind: () => "dir:main" };\n' };
    const cjs = 'const h = require("./helpers");\nmodule.exports = { probe: () => ({ value: h.kind() }) };\n';
    const esm = 'import h from "./helpers";\nexport const probe = () => ({ value: h.kind() });\n';
    ok(runIn({ ...files, "tool.cjs": cjs }, ["--tool-module", "./tool.cjs"], false).r, "dir:main\n");
    ok(runIn({ ...files, "tool.mjs": esm }, ["--tool-module", "./tool.mjs"], false).r, "dir:main\n");
    ok(runIn({ ...files, "tool.cjs": cjs, "luma.config.json": strictConfig("./tool.cjs") }, [], false).r, "dir:main\n");
    ok(runIn({ ...files, "tool.mjs": esm, "luma.config.json": strictConfig("./tool.mjs") }, [], false).r, "dir:main\n");
  });

  test("the working directory's package.json and node_modules are not read: the module's own tree is", () => {
    const { dir } = runIn({ "tool.cjs": CJS_MODULE });
    // An attacker's directory: a node_modules with a main-pkg of its own, and a package.json.
    const cwd = project({
      "package.json": json({ name: "cwd", type: "module", imports: { "#x": "./x.js" } }),
      "node_modules/main-pkg/package.json": json({ name: "main-pkg", main: "evil.js" }),
      "node_modules/main-pkg/evil.js": 'module.exports = { kind: () => "FROM-CWD" };\n',
      "node_modules/main-pkg/index.js": 'module.exports = { kind: () => "FROM-CWD" };\n',
    });
    dirs.push(cwd);
    ok(runLuma([join(dir, "main.luma"), "--tool-module", join(dir, "tool.cjs")], { cwd }), CJS_EXPECTED);
  });
});

describe("the strict checks judge the file the resolution loads", () => {
  test("an exports `require` entry that loads child_process refuses the module, naming that file — not the harmless main", () => {
    const { dir, r } = runIn(
      {
        "node_modules/two-faced/package.json": json({ name: "two-faced", main: "index.js", exports: { require: "./lib/real.js", default: "./index.js" } }),
        "node_modules/two-faced/index.js": 'module.exports = { run: () => "harmless" };\n',
        "node_modules/two-faced/lib/real.js": 'const cp = require("child_process");\nmodule.exports = { run: () => String(cp.execSync("touch spawned")) };\n',
        "tool.cjs": 'const t = require("two-faced");\nmodule.exports = { probe: () => ({ value: t.run() }) };\n',
        "luma.config.json": strictConfig("./tool.cjs"),
      },
      [],
      false,
    );
    expect(r.stderr).toBe(
      "Error: Tool module './tool.cjs' was refused: node_modules/two-faced/lib/real.js:1:20 [child_process] loads 'child_process' (child_process is always forbidden under strict)\n  = code E0505 (luma explain E0505)\n",
    );
    expect(r.exitCode).toBe(2);
    expect(require("node:fs").existsSync(join(dir, "spawned"))).toBe(false);
  });
});

describe("luma build bundles what the loader resolved, and the bundle runs under the strict policy it was built with", () => {
  test("a strict CommonJS module with packages: built, run alone in an empty directory", () => {
    const dir = project({ "main.luma": PROGRAM, ...PACKAGES, "tool.cjs": CJS_MODULE, "luma.config.json": strictConfig("./tool.cjs") });
    dirs.push(dir);
    const built = runLuma(["build", "main.luma", "-o", "agent"], { cwd: dir });
    expect(built.stderr).toBe("");
    expect(built.exitCode).toBe(0);
    const agent = isolate(join(dir, "agent"));
    dirs.push(agent.dir, agent.path);
    ok(runIsolated(agent, []), CJS_EXPECTED);
  }, 120_000);

  test("a non-strict ES module with packages and a relative directory import: built, run alone", () => {
    const dir = project({
      "main.luma": PROGRAM,
      ...PACKAGES,
      "helpers/package.json": json({ main: "real.js" }),
      "helpers/real.js": 'module.exports = { kind: () => "dir:main" };\n',
      "tool.mjs": ESM_MODULE.replace("export const probe", 'import h from "./helpers";\nexport const probe').replace("outer()]", "outer(), h.kind()]"),
    });
    dirs.push(dir);
    const built = runLuma(["build", "main.luma", "--tool-module", "./tool.mjs", "-o", "agent"], { cwd: dir });
    expect(built.stderr).toBe("");
    expect(built.exitCode).toBe(0);
    const agent = isolate(join(dir, "agent"));
    dirs.push(agent.dir, agent.path);
    ok(runIsolated(agent, []), ESM_EXPECTED.replace("\n", " dir:main\n"));
  }, 120_000);
});

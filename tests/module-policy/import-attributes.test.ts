/**
 * Import attributes under strict (docs/modules.md "Strict policy", src/runtime/tools/
 * module-policy/import-attributes.ts), through `dist/luma`: an attribute decides how Bun
 * loads a file whatever its extension, so `with { type: "js" }` would run a `.json` file —
 * which the checks skip as data — as code, and `type: "sqlite"` would open a database that
 * can ATTACH files outside the project. Under strict the one attribute left is `type: "json"`
 * on a `.json` file; every other one refuses the module at load, naming it, the rule and
 * line:col, before anything runs.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { project } from "./strict-project";

const PROGRAM = "schema Out { value: string }\ntool probe() -> Out {}\nr = tool probe({})\nprint(r.value)\n";
const STRICT = (module: string) => JSON.stringify({ tool_modules: [module], tool_module_policy: { sandbox: "strict" } });

/** A `.json` file that is JavaScript: it reads the environment when run as code. */
const CODE_AS_JSON = 'export default "env " + typeof process.env.HOME;\nexport const value = "env " + typeof process.env.HOME;\n';
const WHY = `(under strict a file loads by its extension: the only attribute accepted is type: "json" on a .json file)`;

const run = (module: string, files: Record<string, string>) => {
  const dir = project({ "main.luma": PROGRAM, "luma.config.json": STRICT(module), ...files });
  return { dir, r: runLuma([join(dir, "main.luma")]) };
};

const refusal = (module: string, ...lines: string[]) =>
  `Error: ${lines.map((line) => `Tool module '${module}' was refused: ${line}`).join("\n")}\n  = code E0505 (luma explain E0505)\n`;

describe("§10 strict: an import attribute cannot make Bun load a file as something its extension is not", () => {
  const REFUSED: { name: string; module: string; text: string; expected: string }[] = [
    {
      name: 'import … with { type: "js" } on a .json file (in-process ES module)',
      module: "./tool.mjs",
      text: 'import v from "./data.json" with { type: "js" };\nexport const probe = () => ({ value: v });\n',
      expected: `1:10 [import_attributes] loads './data.json' with { type: "js" } ${WHY}`,
    },
    {
      name: 'import … with { type: "ts" } on a .json file',
      module: "./tool.mjs",
      text: 'import v from "./data.json" with { type: "ts" };\nexport const probe = () => ({ value: v });\n',
      expected: `1:10 [import_attributes] loads './data.json' with { type: "ts" } ${WHY}`,
    },
    {
      name: "the older assert { … } spelling, a comment between the words",
      module: "./tool.mjs",
      text: 'import v from "./data.json" /* data */ assert { type: "js" };\nexport const probe = () => ({ value: v });\n',
      expected: `1:10 [import_attributes] loads './data.json' assert { type: "js" } ${WHY}`,
    },
    {
      name: "export * from … with { type: \"js\" }",
      module: "./tool.mjs",
      text: 'export * from "./data.json" with { type: "js" };\nexport const probe = () => ({ value: "x" });\n',
      expected: `1:10 [import_attributes] loads './data.json' with { type: "js" } ${WHY}`,
    },
    {
      name: "import() with options (dynamic)",
      module: "./tool.mjs",
      text: 'const m = await import("./data.json", { with: { type: "js" } });\nexport const probe = () => ({ value: m.default });\n',
      expected: `1:17 [import_attributes] passes import() options ({ with: { type: "js" } }) for './data.json' ${WHY}`,
    },
    {
      name: "import() with computed options",
      module: "./tool.mjs",
      text: 'const how = { with: { type: ["j", "s"].join("") } };\nconst m = await import("./data.json", how);\nexport const probe = () => ({ value: m.default });\n',
      expected: `2:17 [import_attributes] passes import() options (how) for './data.json' ${WHY}`,
    },
    {
      name: "a TypeScript module (VM context) is held to the same rule",
      module: "./tool.ts",
      text: 'import v from "./data.json" with { type: "js" };\nexport const probe = () => ({ value: v });\n',
      expected: `1:10 [import_attributes] loads './data.json' with { type: "js" } ${WHY}`,
    },
    {
      name: 'type: "json" on a file that is not .json',
      module: "./tool.mjs",
      text: 'import v from "./data.js" with { type: "json" };\nexport const probe = () => ({ value: String(v) });\n',
      expected: `1:10 [import_attributes] loads './data.js' with { type: "json" } ${WHY}`,
    },
  ];

  for (const attempt of REFUSED) {
    test(`${attempt.name} → refused at load (exit 2), nothing runs`, () => {
      const { r } = run(attempt.module, { [attempt.module]: attempt.text, "data.json": CODE_AS_JSON, "data.js": "export default 1;\n" });
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(refusal(attempt.module, attempt.expected));
      expect(r.exitCode).toBe(2);
    });
  }

  test("a helper file of the module is held to it too, named with its line:col", () => {
    const { r } = run("./tool.mjs", {
      "tool.mjs": 'import { value } from "./lib/helper.mjs";\nexport const probe = () => ({ value });\n',
      "lib/helper.mjs": '// reads data\nexport { value } from "../data.json" with { type: "js" };\n',
      "data.json": CODE_AS_JSON,
    });
    expect(r.stderr).toBe(refusal("./tool.mjs", `lib/helper.mjs:2:18 [import_attributes] loads '../data.json' with { type: "js" } ${WHY}`));
    expect(r.exitCode).toBe(2);
  });

  test('type: "sqlite" is refused: the database it opens could ATTACH a file outside the project, and none is created', () => {
    const outside = join(project({}), "outside.db");
    const { dir, r } = run("./tool.mjs", {
      "tool.mjs":
        'import db from "./db.json" with { type: "sqlite" };\n' +
        `db.run("attach database ? as o", [${JSON.stringify(outside)}]);\ndb.run("create table o.t(x)");\n` +
        "export const probe = () => ({ value: typeof db.query });\n",
      "db.json": "",
    });
    expect(r.stderr).toBe(refusal("./tool.mjs", `1:11 [import_attributes] loads './db.json' with { type: "sqlite" } ${WHY}`));
    expect(r.exitCode).toBe(2);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(dir, "db.json-journal"))).toBe(false);
  });

  test('type: "json" on a .json file loads it as data (static and dynamic), in both loaders', () => {
    const data = JSON.stringify({ value: "data" });
    const esm = run("./tool.mjs", {
      "tool.mjs":
        'import d from "./data.json" with { type: "json" };\nconst e = await import("./data.json", { with: { type: "json" } });\n' +
        "export const probe = () => ({ value: d.value + \" \" + e.default.value });\n",
      "data.json": data,
    });
    expect(esm.r.stderr).toBe("");
    expect(esm.r.stdout).toBe("data data\n");
    const ts = run("./tool.ts", { "tool.ts": 'import d from "./data.json" with { type: "json" };\nexport const probe = () => ({ value: d.value });\n', "data.json": data });
    expect(ts.r.stderr).toBe("");
    expect(ts.r.stdout).toBe("data\n");
  });
});

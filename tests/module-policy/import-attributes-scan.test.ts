/**
 * The import-attribute scan alone (src/runtime/module-policy/import-attributes.ts): which
 * spellings it accepts and which it refuses, without a binary in between. What a user sees —
 * the refusal through `dist/luma` — is import-attributes.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { refusedAttributes } from "../../src/runtime/module-policy/import-attributes";

const offsets = (text: string) => refusedAttributes(text).map((use) => use.offset);

describe("§10 import attributes: only type json on a .json specifier passes", () => {
  test("accepted: with/assert { type: \"json\" } on .json, quoted keys, a trailing comma, import(x) and import(x,)", () => {
    for (const text of [
      'import a from "./a.json" with { type: "json" };',
      "import a from './a.json' assert { 'type': 'json', };",
      'const b = await import("./b.json", { with: { "type": "json" } });',
      'const c = await import("./c.mjs"); const d = await import("./d.mjs",);',
      'import e from "./e.mjs";\nwith_thing({ type: "js" });',
    ]) expect(offsets(text)).toEqual([]);
  });

  test("refused: any other type, other keys, a non-.json file, computed options, a third argument", () => {
    for (const text of [
      'import a from "./a.json" with { type: "js" };',
      'import a from "./a.json" with { type: "json", extra: "x" };',
      'import a from "./a.js" with { type: "json" };',
      'import "./a.json" with { type: "text" };',
      'export { x } from "./a.json" with { type: "file" };',
      'import(`./a.json`, opts);',
      'import("./a.json", { with: { type: "json" } }, more);',
      'import("./a.json", { with: { type: "json" }, x: 1 });',
      'import(f("./a", ".json"), { with: { type: "sqlite" } });',
    ]) expect(offsets(text)).toHaveLength(1);
  });

  test("a comment between the words does not hide a clause, and one in a comment-like string does not either", () => {
    expect(offsets('import a from "./a.json" /* x */ with /* y */ { type: "js" };')).toEqual([9]);
    expect(offsets('const s = "/*"; import a from "./a.json" with { type: "js" }; // */')).toEqual([25]);
  });

  test("nested brackets and strings inside import() arguments are skipped whole", () => {
    expect(offsets('import(["./a", ".json"].join(""), { with: { type: "js" } });')).toEqual([0]);
    expect(offsets('import(pick("a,b)", [1, 2]));')).toEqual([]);
  });
});

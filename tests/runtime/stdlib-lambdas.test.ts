/**
 * Issue #28 §2, lambdas through `dist/luma`: `map`, `filter`, `find`, `any`, `all`,
 * `sort_by`, `group_by` with `(x) => e`. The body reads the enclosing unit's names, its
 * parameter hides a variable of the same name only inside it, `find`/`any`/`all` stop at
 * the deciding item, and a body that suspends (a user function, a tool call) runs item
 * after item in order. `luma check` types the parameter from the list; `luma fmt` keeps
 * lambdas as written.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-lambdas-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function lines(source: string, extra: Record<string, string> = {}): string[] {
  const dir = project({ "main.luma": source, ...extra });
  const r = runLuma(["main.luma"], { cwd: dir });
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  return r.stdout.trimEnd().split("\n");
}

const ORDERS = `schema Order { id: string, total: float, status: string }
orders: Order[] = [
  { id: "o-1", total: 12.5, status: "paid" },
  { id: "o-2", total: 3, status: "open" },
  { id: "o-3", total: 40, status: "paid" },
]
`;

describe("issue #28 §2: builtins with lambdas", () => {
  test("map, filter, find, any, all, sort_by, group_by over a typed list", () => {
    const out = lines(
      ORDERS +
        [
          `limit = 10`,
          `print(map(orders, (o) => o.id))`,
          `print(map(filter(orders, (o) => o.total > limit), (o) => "{o.id}:{o.total}"))`,
          `print(find(orders, (o) => o.status == "open"), find(orders, (o) => o.total > 100))`,
          `print(any(orders, (o) => o.total > 30), all(orders, (o) => o.status == "paid"), any([], (x) => true), all([], (x) => false))`,
          `print(map(sort_by(orders, (o) => o.total), (o) => o.id), map(sort_by(orders, (o) => o.status), (o) => o.id))`,
          `print(group_by(orders, (o) => o.status), group_by([1, 2, 3], (n) => n % 2 == 0))`,
        ].join("\n"),
    );
    expect(out).toEqual([
      '["o-1","o-2","o-3"]',
      '["o-1:12.5","o-3:40"]',
      '{"id":"o-2","total":3,"status":"open"} null',
      "true false false true",
      '["o-2","o-1","o-3"] ["o-2","o-1","o-3"]',
      '{"paid":[{"id":"o-1","total":12.5,"status":"paid"},{"id":"o-3","total":40,"status":"paid"}],"open":[{"id":"o-2","total":3,"status":"open"}]} {"false":[1,3],"true":[2]}',
    ]);
  });

  test("the parameter hides a variable of its name only inside the body; nested lambdas; the unit's names are read", () => {
    const out = lines(
      [
        `o = "kept"`,
        `print(map([1, 2], (o) => o * 10), o)`,
        `print(map([[1, 2], [3]], (xs) => map(xs, (x) => x + len(xs))))`,
        `fn scale(xs: int[], k: int) -> int[] {\n  return map(xs, (x) => x * k)\n}`,
        `print(scale([1, 2], 3))`,
      ].join("\n"),
    );
    expect(out).toEqual(["[10,20] kept", "[[3,4],[4]]", "[3,6]"]);
  });

  test("find, any and all stop at the item that decides: later items' lambdas do not run", () => {
    const out = lines(
      [
        `fn seen(n: int) -> int {\n  print("saw {n}")\n  return n\n}`,
        `print(find([1, 2, 3], (n) => seen(n) == 2))`,
        `print(any([1, 2, 3], (n) => seen(n) > 0))`,
        `print(all([1, 2, 3], (n) => seen(n) < 2))`,
      ].join("\n"),
    );
    expect(out).toEqual(["saw 1", "saw 2", "2", "saw 1", "true", "saw 1", "saw 2", "false"]);
  });

  test("a body with a tool call runs item after item, in order, through the pipeline", () => {
    const out = lines(
      [
        `schema Price { sku: string, cents: int }`,
        `tool price(sku: string) -> Price { side_effects: "none" }`,
        `prices = map(["a", "bb", "ccc"], (s) => tool price({ sku: s }))`,
        `print(map(prices, (p) => p.cents), calls("price"))`,
      ].join("\n"),
      {
        "tools.ts": `export const lumaTools = { price: ({ sku }: { sku: string }) => ({ sku, cents: sku.length * 100 }) };\n`,
        "luma.config.json": `{ "tool_modules": ["tools.ts"] }`,
      },
    );
    expect(out).toEqual(["[100,200,300] 3"]);
  });

  test("a list that is not one, and sort_by keys of mixed kinds, are RUNTIME_ERRORs naming the builtin", () => {
    const dir = project({ "main.luma": `xs: any = "abc"\nprint(map(xs, (x) => x))\n` });
    expect(runLuma(["main.luma"], { cwd: dir }).stderr).toContain("map() expects an array, got string at main.luma:2:7");
    writeFileSync(join(dir, "main.luma"), `xs: any[] = [1, "a"]\nprint(sort_by(xs, (x) => x))\n`);
    expect(runLuma(["main.luma"], { cwd: dir }).stderr).toContain(`sort_by() sorts numbers or strings, not both or others: item 2 is string "a"`);
  });

  test("luma check types the parameter from the list (E0301 inside the lambda) and rejects a lambda out of place (E0319)", () => {
    const dir = project({ "main.luma": ORDERS + `print(map(orders, (o) => o.totl))\nprint(len((x) => x))\n` });
    const r = runLuma(["check", "main.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("main.luma:7:26: error[E0301]: Type 'Order' has no field 'totl'.");
    expect(r.stderr).toContain("main.luma:8:11: error[E0319]: A lambda cannot be an argument of 'len'");
  });

  test("luma fmt keeps lambdas, and a parenthesised argument stays an expression", () => {
    const source = `xs = [1, 2]\nprint(map(xs,(x)=>x+1), filter(xs, (x) => (x) > 1), len((xs)))\n`;
    const dir = project({ "main.luma": source });
    expect(runLuma(["fmt", "main.luma"], { cwd: dir }).exitCode).toBe(0);
    expect(readFileSync(join(dir, "main.luma"), "utf8")).toBe(`xs = [1, 2]\nprint(map(xs, (x) => x + 1), filter(xs, (x) => x > 1), len(xs))\n`);
    expect(runLuma(["main.luma"], { cwd: dir }).stdout).toBe("[2,3] [2] 2\n");
  });
});

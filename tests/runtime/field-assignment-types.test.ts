/**
 * Issue #24 §3, through the real `dist/luma`: a write into a typed field keeps the field's
 * declared type at run time. `order.status = pick("lost")`, where `pick` returns `any` and
 * `status` is `enum["new","sent"]`, fails with VALUE_INVALID naming `order.status` and
 * stores nothing; `order["status"] = …` is the same target under the same rule; a value
 * that fits is stored; a mismatch the checker can prove is E0317 for both forms.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const PRELUDE = `schema Line { sku: string, qty: int }
schema Order { id: int, status: enum["new", "sent"], note?: string, lines: Line[], tags: enum["a", "b"][] }
fn pick(v: any) -> any { return v }
order: Order = { id: 1, status: "new", lines: [{ sku: "x", qty: 1 }], tags: ["a"] }
`;

function program(body: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "luma-into-")), "main.luma");
  writeFileSync(file, PRELUDE + body + "\n");
  return file;
}

/** Runs `body` after the prelude; each failing write is caught and its code and message printed. */
function run(body: string, env: Record<string, string> = {}): { exitCode: number; lines: string[]; stderr: string } {
  const r = runLuma([program(body)], { env });
  return { exitCode: r.exitCode, lines: r.stdout.trimEnd().split("\n"), stderr: r.stderr };
}

const attempt = (write: string): string => `try {\n  ${write}\n} catch e {\n  print(e.code, e.message)\n}`;

describe("issue #24: a field write keeps the typed target's rules at run time", () => {
  test("the issue's example: VALUE_INVALID naming order.status, and the old value stays", () => {
    const r = run(`${attempt('order.status = pick("lost")')}\nprint(order.status)`);
    expect(r.exitCode).toBe(0);
    expect(r.lines[0]).toStartWith('VALUE_INVALID order.status must be one of "new", "sent" (enum)');
    expect(r.lines[1]).toBe("new");
  });

  test('o["status"] = v follows the same rule, named the same way', () => {
    const r = run(`${attempt('order["status"] = pick("lost")')}\nprint(order.status)`);
    expect(r.lines[0]).toStartWith('VALUE_INVALID order.status must be one of "new", "sent" (enum)');
    expect(r.lines[1]).toBe("new");
  });

  test("a value that fits is stored, by either form", () => {
    const r = run(`order.status = pick("sent")\nprint(order.status)\norder["status"] = pick("new")\nprint(order.status)`);
    expect(r.exitCode).toBe(0);
    expect(r.lines).toEqual(["sent", "new"]);
  });

  test("the same in a while loop (the asynchronous executor)", () => {
    const r = run(`i = 0\nwhile i < 1 {\n  i = i + 1\n  ${attempt('order.status = pick("lost")')}\n  order["status"] = pick("sent")\n}\nprint(order.status)`);
    expect(r.lines[0]).toStartWith('VALUE_INVALID order.status must be one of "new", "sent" (enum)');
    expect(r.lines[1]).toBe("sent");
  });

  test("uncaught, the run fails with VALUE_INVALID at the write and runs nothing after it", () => {
    const r = run(`order.status = pick("lost")\nprint("after")`);
    expect(r.exitCode).not.toBe(0);
    expect(r.lines).toEqual([""]);
    expect(r.stderr).toContain("VALUE_INVALID");
    expect(r.stderr).toContain('order.status must be one of "new", "sent" (enum)');
  });

  test("nested paths, items of a declared array, a whole schema value, an int field", () => {
    const r = run(
      [
        attempt('order.lines[0].qty = pick("many")'),
        attempt("order.lines[0] = pick({ sku: 1, qty: 2 })"),
        attempt('order.tags[0] = pick("zzz")'),
        attempt("order.id = pick(1.5)"),
        "print(order)",
      ].join("\n"),
    );
    expect(r.lines).toEqual([
      expect.stringContaining("VALUE_INVALID order.lines[0].qty must be an integer"),
      expect.stringContaining("VALUE_INVALID order.lines[0].sku must be a string"),
      expect.stringContaining('VALUE_INVALID order.tags[0] must be one of "a", "b" (enum)'),
      expect.stringContaining("VALUE_INVALID order.id must be an integer"),
      '{"id":1,"status":"new","lines":[{"sku":"x","qty":1}],"tags":["a"]}',
    ]);
  });

  test("inside a function, on a typed parameter; an optional field takes null", () => {
    const r = run(`fn close(o: Order) { o.status = pick("gone") }\n${attempt("close(order)")}\norder.note = pick(null)\nprint(order.status, order.note)`);
    expect(r.lines[0]).toStartWith('VALUE_INVALID o.status must be one of "new", "sent" (enum)');
    expect(r.lines[1]).toBe("new null");
  });

  test("a field's value rules come with it: @range, @pattern hard; a soft rule warns and stores", () => {
    const file = program(`schema Item { sku: string @pattern("^[a-z]+$"), qty: int @range(1, 10), score?: int @range(0, 5) @severity("soft") }
item: Item = { sku: "x", qty: 1 }
${attempt("item.qty = pick(50)")}
${attempt('item["sku"] = "UP"')}
item.score = pick(9)
print(item)`);
    const r = runLuma([file]);
    expect(r.stdout.trimEnd().split("\n")).toEqual([
      expect.stringContaining("VALUE_INVALID item.qty must be <= 10 (@range)"),
      expect.stringContaining("VALUE_INVALID item.sku must match the pattern /^[a-z]+$/ (@pattern)"),
      '{"sku":"x","qty":1,"score":9}',
    ]);
    expect(r.stderr).toContain("warning: item.score must be <= 5 (@range)");
  });

  test("a target typed only by a literal declares nothing: it takes any value", () => {
    const r = run(`loose = { status: "new" }\nloose.status = pick(5)\nprint(loose)`);
    expect(r.lines).toEqual(['{"status":5}']);
  });

  test("a program answered from the checked-program cache keeps the check", () => {
    const cache = mkdtempSync(join(tmpdir(), "luma-into-cache-"));
    const file = program(`${attempt('order.status = pick("lost")')}\nprint(order.status)`);
    for (let i = 0; i < 2; i++) {
      const r = runLuma([file], { env: { LUMA_NO_CACHE: "", XDG_CACHE_HOME: cache } });
      expect(r.stdout).toStartWith('VALUE_INVALID order.status must be one of "new", "sent" (enum)');
      expect(r.stdout).toEndWith("\nnew\n");
    }
    expect(readdirSync(join(cache, "luma")).length).toBe(1); // the second run read the entry the first wrote
  });
});

describe("issue #24: a write whose field is known only at run time checks the whole object", () => {
  test("a computed key into a schema value: a wrong value or an unknown field is VALUE_INVALID; nothing is written", () => {
    const r = run(
      ['k = pick("status")', attempt('order[k] = pick("lost")'), attempt('order[pick("nope")] = 1'), 'order[k] = pick("sent")', "print(order.status, keys(order))"].join("\n"),
    );
    expect(r.lines).toEqual([
      expect.stringContaining('VALUE_INVALID order.status must be one of "new", "sent" (enum)'),
      expect.stringContaining("VALUE_INVALID order.nope is not a known field"),
      'sent ["id","status","lines","tags"]',
    ]);
  });

  test("a tagged union not narrowed to one member: the member the value is keeps its rules", () => {
    const file = program(`schema Circle { radius: float }
schema Square { side: float }
schema Shape = Circle | Square tagged by kind
s: Shape = pick({ kind: "Circle", radius: 1.0 })
${attempt('s.radius = pick("big")')}
${attempt("s.side = pick(2.0)")}
s.radius = pick(2.5)
print(s)`);
    const r = runLuma([file]);
    expect(r.stdout.trimEnd().split("\n")).toEqual([
      expect.stringContaining("VALUE_INVALID s.radius must be a number"),
      expect.stringContaining("VALUE_INVALID s.side is not a known field"),
      '{"kind":"Circle","radius":2.5}',
    ]);
  });
});

describe("issue #24: an item of a variable or parameter declared as an array keeps the item type", () => {
  test("xs: int[] and a string[] parameter: VALUE_INVALID naming the item, nothing written; an inferred list takes any value", () => {
    const r = run(
      [
        "xs: int[] = [1, 2]",
        attempt('xs[0] = pick("a")'),
        "xs[1] = pick(5)",
        "fn put(ys: string[]) { ys[0] = pick(3) }",
        attempt('put(["x"])'),
        "loose = [1, 2]",
        'loose[0] = pick("free")',
        "print(xs, loose)",
      ].join("\n"),
    );
    expect(r.lines).toEqual([
      expect.stringContaining("VALUE_INVALID xs[0] must be an integer"),
      expect.stringContaining("VALUE_INVALID ys[0] must be a string"),
      '[1,5] ["free",2]',
    ]);
  });
});

describe("issue #24: a provable mismatch is E0317 at check time, for both forms", () => {
  for (const write of ['order.status = "bogus"', 'order["status"] = "bogus"']) {
    test(write, () => {
      const file = program(`print("ran")\n${write}`);
      for (const args of [["check", file], [file]]) {
        const r = runLuma(args);
        expect(r.exitCode).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr).toContain(`error[E0317]: Cannot assign a value of type '"bogus"' to field 'status' of type 'enum["new", "sent"]'.`);
      }
    });
  }
});

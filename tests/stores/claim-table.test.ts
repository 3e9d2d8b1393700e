/** The file store's claim table (in-flight records): rewritten in place, readable after a torn rewrite. */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ClaimTable } from "../../src/runtime/stores/file/claim-table";
import { freshDir } from "./support/store-fixture";

const claim = (token: string) => ({ pid: 123, token, fp: "fp", leaseUntil: 1e15 });

describe("§11 file store: the claim table", () => {
  test("a shorter rewrite leaves old bytes after the newline; readers stop at the newline", () => {
    const path = join(freshDir(), "t.claims");
    const table = new ClaimTable(path);
    table.write({ writeId: "a".repeat(16), claims: new Map([["k1", claim("t1")], ["k2", claim("t2")]]) });
    table.write({ writeId: "b".repeat(16), claims: new Map([["k1", claim("t1")]]) });
    expect(readFileSync(path, "utf8").split("\n").length).toBeGreaterThan(2); // the tail of the longer line is still there
    const state = table.read();
    expect(state.writeId).toBe("b".repeat(16));
    expect([...state.claims.keys()]).toEqual(["k1"]);
  });

  test("an unreadable table is an empty one, with no known write_id", () => {
    const path = join(freshDir(), "t.claims");
    writeFileSync(path, "\u0000\u0000garbage without a newline");
    const state = new ClaimTable(path).read();
    expect(state).toEqual({ writeId: undefined, claims: new Map() });
  });

  test("entries that are not claims are dropped", () => {
    const path = join(freshDir(), "t.claims");
    writeFileSync(path, JSON.stringify({ w: "x", c: { ok: claim("t"), bad: { pid: "no" } } }) + "\n");
    expect([...new ClaimTable(path).read().claims.keys()]).toEqual(["ok"]);
  });

  test("a table longer than the read-ahead buffer is read whole", () => {
    const path = join(freshDir(), "t.claims");
    const table = new ClaimTable(path);
    const many = new Map(Array.from({ length: 400 }, (_, i) => [`key-digest-${i}`, claim(`token-${i}`)] as const));
    table.write({ writeId: "c".repeat(16), claims: many });
    expect(table.read().claims.size).toBe(400);
  });
});

/**
 * Durable runs (issue #15) §1: queries and commands (spec §12) are steps like tool calls —
 * kinds "query" and "command" in the journal — so a resumed run does not execute a
 * finished command again: its recorded result comes back instead.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { JournalProject } from "./journal-project";

const PROGRAM = `
datasource Shop { url: "sqlite:shop.db" }
schema Inserted { id: int }
schema Count { n: int }
command add_order(item: string) -> Inserted {
  source: Shop
  sql: "INSERT INTO orders (item) VALUES ($1) RETURNING id"
}
query order_count() -> Count {
  source: Shop
  sql: "SELECT count(*) AS n FROM orders"
}
a = command add_order({ item: "tea" })
b = command add_order({ item: "cake" })
c: Count = query order_count({})
print(a.id, b.id, c.n)
`;

describe("Durable runs (issue #15 §1): query and command receipts", () => {
  test("killed after the second command's finish receipt: the resumed run executes neither command again", async () => {
    const p = new JournalProject(PROGRAM);
    const db = new Database(p.path("shop.db"), { create: true });
    db.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT NOT NULL)");
    db.close();
    const crashed = await p.runFlow("o1", ["--journal", "runs.sqlite"], { LUMA_TEST_CRASH_AT: "journal-after-finish:2" });
    expect(crashed.signal).toBe("SIGKILL");
    const resumed = await p.runFlow("o1", ["--journal", "runs.sqlite"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("1 2 2\n");
    const check = new Database(p.path("shop.db"));
    expect(check.query("SELECT item FROM orders ORDER BY id").all()).toEqual([{ item: "tea" }, { item: "cake" }]);
    check.close();
    const shown = JSON.parse((await p.run(["runs", "show", "o1", "--journal", "runs.sqlite", "--format", "json"])).stdout);
    expect(shown.steps.map((s: { step: string; kind: string; name: string }) => [s.step, s.kind, s.name])).toEqual([
      ["main/1", "command", "add_order"],
      ["main/2", "command", "add_order"],
      ["main/3", "query", "order_count"],
    ]);
  });
});

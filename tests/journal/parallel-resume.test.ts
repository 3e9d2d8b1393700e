/**
 * Durable runs and `parallel` (issue #27 §4): each branch has a stable step id
 * (`main/parallel#1/branch#k/…`, given in input order before any branch starts), so a run
 * killed with SIGKILL in the middle of a fan-out and resumed with the same --run-id replays
 * the receipts of the finished branches and runs only the unfinished ones: every side effect
 * once, the output an uninterrupted run's. Real processes, a real SQLite journal.
 */
import { describe, expect, test } from "bun:test";
import { JournalProject } from "./journal-project";

const fanOut = (limit: number) => `
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
r = parallel for n in [1, 2, 3, 4] limit ${limit} {
  d = tool effect({ n: n })
  d.done * 10
}
print(r)
`;

const CONFIG = { journal: { backend: "sqlite", path: "runs.sqlite" } };

describe("parallel in a durable run: kill -9 mid-fan-out, then resume", () => {
  test("one branch at a time, killed inside the 3rd handler: branches 1 and 2 are replayed, only 3 and 4 run", async () => {
    const p = new JournalProject(fanOut(1), CONFIG);
    const crashed = await p.runFlow("fan-1", [], { LUMA_TEST_KILL_IN_HANDLER: "3" });
    expect(crashed.signal).toBe("SIGKILL");
    const resumed = await p.runFlow("fan-1");
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("[10,20,30,40]\n");
    expect(p.lines("effects.log").map((e) => e.n)).toEqual([1, 2, 3, 4]);
    const calls = p.lines("calls.log");
    expect(calls.map((c) => c.n)).toEqual([1, 2, 3, 3, 4]);
    expect(calls.map((c) => c.step)).toEqual([1, 2, 3, 3, 4].map((k) => `main/parallel#1/branch#${k}/1`));
    expect(calls.map((c) => c.attempt)).toEqual([1, 1, 1, 2, 1]);
  }, 30_000);

  test("four at once, killed inside the 2nd handler to run: each side effect once, the same output, stable keys", async () => {
    const p = new JournalProject(fanOut(4), CONFIG);
    const crashed = await p.runFlow("fan-4", [], { LUMA_TEST_KILL_IN_HANDLER: "2" });
    expect(crashed.signal).toBe("SIGKILL");
    const resumed = await p.runFlow("fan-4");
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("[10,20,30,40]\n");
    const effects = p.lines("effects.log");
    expect(effects.map((e) => e.n).sort()).toEqual([1, 2, 3, 4]);
    expect(effects.every((e) => e.key === `fan-4/main/parallel#1/branch#${e.n}/1`)).toBe(true);
    // A finished branch is never run again: at most the ones in flight at the kill ran twice.
    const calls = p.lines("calls.log");
    expect(calls.length).toBeLessThan(8);

    // Resumed again after it finished: nothing runs, the same output.
    const again = await p.runFlow("fan-4");
    expect(again.stdout).toBe("[10,20,30,40]\n");
    expect(p.lines("calls.log").length).toBe(calls.length);
  }, 30_000);
});

/**
 * `parallel` (issue #27 §4) through the real `dist/luma`: `parallel for` values in input
 * order whatever order the bodies finish in, at most `limit` at once (the config's
 * `parallel_limit`, 8, without one), `parallel { }` branches' assignments visible after,
 * the first failure aborting the others' handler signals and caught by `try`, and the
 * check errors E1201–E1205. The tool module counts calls in flight, so "at most N at once"
 * is a count, not a timing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const TOOLS_TS = `
let inflight = 0, peak = 0, started = 0;
const log = [];
export const tools = {
  // Holds until \`want\` calls are in flight (or all \`total\` have started), so the peak is reached, not raced for.
  probe: async (input) => {
    inflight++; started++;
    peak = Math.max(peak, inflight);
    const until = Date.now() + 5000;
    while (inflight < input.want && started < input.total && Date.now() < until) await Bun.sleep(2);
    await Bun.sleep(input.n % 3);
    inflight--;
    return { n: input.n };
  },
  peak: () => ({ n: peak }),
  reset: () => { peak = 0; started = 0; return { n: 0 }; },
  slow: async (input) => { await Bun.sleep(input.n); return { n: input.n }; },
  hold: (input, signal) => new Promise((resolve, reject) => {
    const t = setTimeout(() => resolve({ n: input.n }), 10000);
    signal.addEventListener("abort", () => { clearTimeout(t); log.push("aborted " + input.n); reject(new Error("aborted")); });
  }),
  boom: async (input) => { await Bun.sleep(20); throw new Error("boom " + input.n); },
  seen: () => ({ n: log.length, text: log.join(",") }),
};
`;

const DECLS = `
schema N { n: int }
schema Seen { n: int  text: string }
tool probe(n: int, want: int, total: int) -> N {}
tool peak() -> N {}
tool reset() -> N {}
tool slow(n: int) -> N {}
tool hold(n: int) -> N { timeout: 20000 }
tool boom(n: int) -> N {}
tool seen() -> Seen {}
`;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(program: string, config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-parallel-"));
  dirs.push(dir);
  writeFileSync(join(dir, "tools.ts"), TOOLS_TS);
  writeFileSync(join(dir, "main.luma"), DECLS + program);
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"], ...config }));
  return dir;
}

const run = (program: string, config: Record<string, unknown> = {}) => runLuma(["main.luma"], { cwd: project(program, config) });

describe("parallel for (issue #27 §4)", () => {
  test("the values are in input order, each body's last expression, at most `limit` at once", () => {
    const r = run(`
r = parallel for x in [1, 2, 3, 4, 5, 6, 7, 8, 9] limit 3 {
  p = tool probe({ n: x, want: 3, total: 9 })
  p.n * 10
}
print(r, tool peak({}).n)
`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("[10,20,30,40,50,60,70,80,90] 3\n");
  });

  test("bodies that finish in another order still give input order", () => {
    const r = run(`o = parallel for d in [60, 1, 30] { tool slow({ n: d }).n }\nprint(o)`);
    expect(r.stdout).toBe("[60,1,30]\n");
  });

  test("without limit: 8 at once by default, the config's parallel_limit when set", () => {
    // Each call holds until \`want\` are in flight: a pool wider than want would show a higher peak.
    const program = (want: number) => `ys = parallel for x in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] {
  tool probe({ n: x, want: ${want}, total: 20 }).n
}
print(len(ys), tool peak({}).n)
`;
    expect(run(program(8)).stdout).toBe("20 8\n");
    expect(run(program(5), { parallel_limit: 5 }).stdout).toBe("20 5\n");
  });

  test("each body's variables are its own: not seen after the loop", () => {
    const r = run(`y = "before"\nr = parallel for x in [1, 2] { y = x\n y * 2 }\nprint(r, y)`);
    expect(r.stdout).toBe('[2,4] before\n');
  });

  test("an empty list gives an empty array; a bad limit known only at run time is a RUNTIME_ERROR", () => {
    expect(run(`print(parallel_items())\nfn parallel_items() -> int[] { return parallel for x in [] { 1 } }`).stdout).toBe("[]\n");
    const r = run(`n = len([]) \nr = parallel for x in [1] limit n { x }`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("'parallel for' needs a limit that is a whole number of at least 1, got 0");
  });

  test("`parallel` and `limit` stay ordinary names", () => {
    const r = run(`parallel = 2\nlimit = [parallel]\nr = parallel for x in limit limit parallel { x }\nprint(r, parallel, limit)`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("[2] 2 [2]\n");
  });
});

describe("parallel { } (issue #27 §4)", () => {
  test("each statement runs at once; what they assign is visible after", () => {
    const r = run(`
parallel {
  a = tool probe({ n: 1, want: 2, total: 2 })
  b = tool probe({ n: 2, want: 2, total: 2 })
}
print(a.n, b.n, tool peak({}).n)
`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("1 2 2\n");
  });

  test("the first failure aborts the others' handler signals and is caught by try", () => {
    const r = run(`
try {
  parallel {
    a = tool hold({ n: 1 })
    b = tool boom({ n: 2 })
  }
} catch e {
  print("caught", e.code, e.message)
}
print(tool seen({}).text, a, b)
`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^caught TOOL_HANDLER_ERROR boom 2.*\naborted 1 null null\n$/);
  });

  test("in a parallel for: no new body starts after the failure, and the failure is raised uncaught", () => {
    const r = run(`
r = parallel for x in [1, 2, 3, 4, 5, 6] limit 2 {
  if x == 2 { tool boom({ n: x }) } else { tool hold({ n: x }) }
}
`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("boom 2");
  });
});

describe("parallel: what holds across branches", () => {
  test("an agent method's circuit breaker counts the failures of all its branches", () => {
    const r = run(`
agent Worker {
  tool_failure_limit: 3
  tools: [boom]
  fn go() -> string[] {
    return parallel for n in [1, 2, 3, 4, 5] limit 1 {
      try {
        tool boom({ n: n })
        "ok"
      } catch e {
        e.code
      }
    }
  }
}
print(Worker.go())
`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('["TOOL_HANDLER_ERROR","TOOL_HANDLER_ERROR","TOOL_CIRCUIT_OPEN","TOOL_CIRCUIT_OPEN","TOOL_CIRCUIT_OPEN"]\n');
  });
});

describe("parallel: check errors E1201–E1205", () => {
  test("races, a nested parallel for, jumps out of a branch and a bad limit are rejected before the run", () => {
    const r = run(`
fn f(x: int) -> int { x }
parallel {
  a = f(1)
  a = f(2)
}
parallel {
  c = f(1)
  d = f(c)
}
print(len(parallel for x in [1] { x }))
ys = parallel for x in [1, 2] limit 0 {
  if x > 1 { break }
  x
}
fn g() -> int {
  parallel {
    return 1
  }
  return 2
}
w: string[] = parallel for x in [1, 2] { x }
`);
    expect(r.exitCode).toBe(2);
    const codes = [...r.stderr.matchAll(/error\[(E\d+)\]/g)].map((m) => m[1]);
    expect(codes).toEqual(["E1201", "E1202", "E1203", "E1205", "E1204", "E1204", "E0304"]);
    expect(r.stderr).toContain("Two branches of 'parallel' assign 'a'");
    expect(r.stderr).toContain("A branch of 'parallel' reads 'c'");
  });
});

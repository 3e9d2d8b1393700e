/**
 * Test support for durable runs: a project in a temp directory (program, tool module,
 * luma.config.json) run through the real `dist/luma`, asynchronously, so that a fake
 * provider living in this process keeps answering while the binary runs.
 *
 * The tool module's `effect` tool is a cooperating side effect: it appends to `effects.log`
 * only when the `ctx.idempotencyKey` it is given is not there yet (what a downstream API
 * with its own idempotency keys does), and appends every execution to `calls.log`, so
 * tests can tell "the side effect happened once" from "the handler ran once".
 * LUMA_TEST_KILL_IN_HANDLER=n makes the n-th execution have its process killed (`kill -9`
 * from a child process, as a crash from outside would be: the runtime's exit guard refuses
 * a handler's own `process.kill`) right after the side effect, before the result gets
 * back: the window only `ctx` closes.
 * `gate` blocks until the file `release` exists, after writing `started.<pid>`.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";

export const TOOLS_TS = `
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.env.PROJECT_DIR;
let executions = 0;
const lines = (f) => (existsSync(f) ? readFileSync(f, "utf8").split("\\n").filter(Boolean).map((l) => JSON.parse(l)) : []);
export const tools = {
  effect: (input, _signal, _needs, ctx) => {
    appendFileSync(join(dir, "calls.log"), JSON.stringify({ n: input.n, key: ctx.idempotencyKey, attempt: ctx.attempt, step: ctx.stepId }) + "\\n");
    const effects = join(dir, "effects.log");
    if (!lines(effects).some((e) => e.key === ctx.idempotencyKey)) appendFileSync(effects, JSON.stringify({ n: input.n, key: ctx.idempotencyKey }) + "\\n");
    executions++;
    if (Number(process.env.LUMA_TEST_KILL_IN_HANDLER) === executions) {
      // kill -9 from another process: the exit guard refuses a handler's own process.kill.
      Bun.spawnSync(["kill", "-9", String(process.pid)]);
      for (;;) Bun.sleepSync(1000);
    }
    return { done: input.n };
  },
  gate: async (input) => {
    writeFileSync(join(dir, "started." + process.pid), "");
    while (!existsSync(join(dir, "release"))) await Bun.sleep(10);
    appendFileSync(join(dir, "effects.log"), JSON.stringify({ gate: input.n }) + "\\n");
    return { done: input.n };
  },
};
`;

export interface Run {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

export class JournalProject {
  readonly dir: string;

  constructor(program: string, config: Record<string, unknown> = {}) {
    this.dir = mkdtempSync(join(tmpdir(), "luma-journal-"));
    writeFileSync(join(this.dir, "tools.ts"), TOOLS_TS);
    writeFileSync(join(this.dir, "flow.luma"), program);
    writeFileSync(join(this.dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"], ...config }));
  }

  write(name: string, text: string): void {
    writeFileSync(join(this.dir, name), text);
  }

  /** One `luma` process in the project directory. */
  spawn(args: string[], env: Record<string, string | undefined> = {}) {
    return Bun.spawn([ensureBinary(), ...args], {
      cwd: this.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", PROJECT_DIR: this.dir, ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  }

  async run(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
    const p = this.spawn(args, env);
    const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    await p.exited;
    return { exitCode: p.exitCode, signal: p.signalCode === null ? null : String(p.signalCode), stdout, stderr };
  }

  /** `luma flow.luma --run-id ID` plus the given options. */
  runFlow(runId: string, extra: string[] = [], env: Record<string, string | undefined> = {}): Promise<Run> {
    return this.run(["flow.luma", "--run-id", runId, ...extra], env);
  }

  lines(name: string): any[] {
    const f = join(this.dir, name);
    return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  }

  path(name: string): string {
    return join(this.dir, name);
  }
}

/** A program with five side-effecting tool calls and two `ask`s (model M, at the fake provider). */
export const FIVE_EFFECTS_TWO_ASKS = `
model M { provider: "openai"  name: "gpt-5.4-mini" }

schema Done { done: int }
schema Verdict { ok: bool  note: string }

tool effect(n: int) -> Done {
  side_effects: "write"
}

agent Judge {
  model: M
  fn check(n: int) -> Verdict {
    ask "Is {n} fine?" -> Verdict
  }
}

a = tool effect({ n: 1 })
print("a", a.done)
b = tool effect({ n: 2 })
v1 = Judge.check(b.done)
print("v1", v1.note)
c = tool effect({ n: 3 })
d = tool effect({ n: 4 })
print("c+d", c.done + d.done)
v2 = Judge.check(d.done)
print("v2", v2.note)
e = tool effect({ n: 5 })
print("e", e.done)
`;

/** One `ask` whose model calls the write tool `effect` (model M); the answer is printed as `total N`. */
export const ASK_CALLING_TOOLS = `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Done { done: int }
schema Answer { total: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
agent Worker {
  model: M
  tools: [effect]
  fn run() -> Answer {
    ask "Call effect with 1 and 2, then answer the total." -> Answer
  }
}
print("total", Worker.run().total)
`;

/** One write tool that blocks at its gate (until the file \`release\` exists). */
export const GATED = `
schema Done { done: int }
tool gate(n: int) -> Done {
  side_effects: "write"
  timeout: 60000
}
r = tool gate({ n: 1 })
print("gate", r.done)
`;

/** One write call under `tool_policy: "approval"`, input n: the program the approval and integrity tests run. */
export const approvalProgram = (n: number): string => `
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
agent Ops {
  tool_policy: "approval"
  tools: [effect]
  fn go(n: int) -> int {
    r = tool effect({ n: n })
    return r.done
  }
}
print("got", Ops.go(${n}))
`;

/**
 * Issue #27 §1 figure: what a sub-agent call costs over the same ask made directly. Two
 * programs, run in-process (`runFile`) against the loopback fake provider, each making the
 * same three provider requests per round:
 *
 *   as a tool   Triage's model calls `Refunds_handle`; Refunds.handle asks once; Triage answers.
 *   directly    Triage's model calls a tool it is not offered (answered at once with an error
 *               result, no pipeline); Triage answers; then code calls Refunds.handle, which
 *               asks once.
 *
 * The difference per round is the agent-as-a-tool path: the arguments' validation against
 * the method's parameters, the new method call (its frame, step scope, budgets, depth), and
 * the return value's validation and hand-back as the tool result. Target: ≤ 50 µs.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFile } from "../src/index";
import { startFakeProvider, type FakeTurn } from "../tests/support/fake-provider/fake-provider";
import { fmt, median } from "./measure";

const ROUNDS_PER_RUN = 400;

const program = (body: string) => `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Result { ok: bool  note: string }
agent Refunds {
  model: M
  fn handle(order_id: string) -> Result { ask "Refund {order_id}" -> Result }
}
agent ViaTool {
  model: M
  tools: [Refunds.handle]
  fn run(text: string) -> Result { ask text -> Result }
}
agent Plain {
  model: M
  fn run(text: string) -> Result { ask text -> Result }
}
i = 0
while i < ${ROUNDS_PER_RUN} {
  ${body}
  i = i + 1
}
print(i)
`;
const AS_TOOL = program(`ViaTool.run("refund A-7")`);
const DIRECTLY = program(`Plain.run("refund A-7")\n  Refunds.handle("A-7")`);

export async function benchSubAgentCall(): Promise<void> {
  const fake = await startFakeProvider();
  fake.recording = false;
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-subagent-"));
  const env = { PATH: process.env.PATH, LUMA_NO_CACHE: "1", OPENAI_API_KEY: "sk-bench", LUMA_BASE_URL_M: fake.baseUrl("openai") };
  const answer: FakeTurn = { json: { ok: true, note: "refunded" } };
  const asTool: FakeTurn[] = [{ toolCalls: [{ name: "Refunds_handle", args: { order_id: "A-7" } }] }, answer, answer];
  const directly: FakeTurn[] = [{ toolCalls: [{ name: "not_offered", args: {} }] }, answer, answer];

  /** µs per round of one run of `source`, its turns scripted for every round. */
  const perRound = async (name: string, source: string, turns: FakeTurn[]): Promise<number> => {
    const file = join(dir, `${name}.luma`);
    writeFileSync(file, source);
    fake.script(Array.from({ length: ROUNDS_PER_RUN }, () => turns).flat());
    const out: string[] = [];
    const t0 = performance.now();
    await runFile({ file, args: [], toolModules: [], cwd: dir, env, stdout: (l) => out.push(l), stderr: (l) => out.push(l), interactive: false });
    const us = ((performance.now() - t0) * 1000) / ROUNDS_PER_RUN;
    if (out.join("") !== String(ROUNDS_PER_RUN) || fake.pending !== 0) throw new Error(`sub-agent bench: ${name} did not run as scripted: ${out.join("\n")}`);
    return us;
  };

  try {
    await perRound("as-tool", AS_TOOL, asTool); // warm-up
    await perRound("directly", DIRECTLY, directly);
    const tool: number[] = [];
    const direct: number[] = [];
    const diffs: number[] = [];
    for (let round = 0; round < 21; round++) {
      const d = await perRound("directly", DIRECTLY, directly);
      const t = await perRound("as-tool", AS_TOOL, asTool);
      direct.push(d);
      tool.push(t);
      diffs.push(t - d);
    }
    console.log(`sub-agent call (in-process, loopback fake provider, medians of 21 runs × ${ROUNDS_PER_RUN} rounds of 3 requests)`);
    console.log(`  the ask made directly (code calls Refunds.handle)   ${fmt(median(direct))} µs per round`);
    console.log(`  the ask as a sub-agent call (model calls it)        ${fmt(median(tool))} µs per round`);
    console.log(`  a sub-agent call over the direct ask (difference)   ${fmt(median(diffs))} µs   (target ≤ 50 µs)\n`);
  } finally {
    fake.stop();
  }
}

if (import.meta.main) await benchSubAgentCall();

/**
 * Issue #26 §4, scale-out: two `luma serve` processes — as behind a load balancer — on one
 * PostgreSQL database (and on one Redis) share threads and idempotency. A chat continued on
 * the other process sees its whole history (tool calls included), and a keyed write sent to
 * both at once runs once, both answering its one result. On Postgres they share a journal as
 * well: every request is a run of its own in it, whichever process answered it. Needs LUMA_TEST_PG_URL and
 * LUMA_TEST_REDIS_URL (the CI's services); a backend without its URL is skipped.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { chatClient, textOf } from "./chat-client";
import { post, project, serve } from "./serve-harness";
import { ensureBinary } from "../support/luma-binary";

setDefaultTimeout(60_000);

const BACKENDS: [string, string | undefined][] = [
  ["postgres", process.env.LUMA_TEST_PG_URL],
  ["redis", process.env.LUMA_TEST_REDIS_URL],
];
const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
schema Order { id: int  status: string }
schema Receipt { receipt: string }
tool lookup_order(id: int) -> Order {}
tool send_invoice(job_id: string) -> Receipt {
  side_effects: "write"
  idempotent: true
  idempotency_key: job_id
  timeout: 10000
}
agent Support {
  model: M
  system: "You help with orders."
  tools: [lookup_order, send_invoice]
  fn invoice(job_id: string) -> Receipt { return tool send_invoice({ job_id: job_id }) }
}
`;

/** Each run of send_invoice appends a line to RUNS_FILE: the count of lines is the count of runs, across processes. */
const TOOLS = `import { appendFileSync } from "node:fs";
export const lumaTools = {
  lookup_order: (i: { id: number }) => ({ id: i.id, status: "shipped" }),
  send_invoice: async (i: { job_id: string }) => {
    appendFileSync(process.env.RUNS_FILE!, i.job_id + "\\n");
    await Bun.sleep(300);
    return { receipt: "R-" + i.job_id + "-" + process.pid };
  },
};
`;

describe("issue #26 §4: two luma serve processes on one store", () => {
  for (const [backend, storeUrl] of BACKENDS) test.skipIf(storeUrl === undefined)(`${backend}: a chat continued on the other process sees its whole history; a keyed write sent to both runs once`, async () => {
    // On Postgres the two share a journal too: each request, chat turn or method call, is a run of its own in it.
    const journalTable = `journal_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const dir = project(program, {
      threads: { backend, url_env: "STORE_URL" },
      idempotency_store: { backend, url_env: "STORE_URL" },
      ...(backend === "postgres" ? { journal: { backend, url_env: "STORE_URL", table: journalTable } } : {}),
    });
    writeFileSync(join(dir, "tools.ts"), TOOLS);
    const runs = join(dir, "runs.txt");
    writeFileSync(runs, "");
    const env = { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai"), STORE_URL: storeUrl, RUNS_FILE: runs };
    const [a, b] = await Promise.all([serve(dir, [], env), serve(dir, [], env)]);
    try {
      expect(a.stderr()).toContain(`chat threads: ${backend}`);
      const chatId = `chat-${crypto.randomUUID()}`;
      const onA = chatClient(a.url);
      fake.script([{ text: "Let me look. ", toolCalls: [{ name: "lookup_order", args: { id: 7 }, id: "call_7" }] }, { text: "Order 7 has shipped." }]);
      const first = await onA.send("Support", chatId, [onA.user("Where is order 7?")]);
      expect(textOf(first.message)).toBe("Let me look. Order 7 has shipped.");

      const onB = chatClient(b.url);
      fake.script([{ text: "It shipped, as I said." }]);
      const second = await onB.send("Support", chatId, [onB.user("Are you sure?")]);
      expect(textOf(second.message)).toBe("It shipped, as I said.");
      const sent = fake.requests[0].body.messages;
      expect(sent.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
      expect(sent[2].tool_calls[0].function.name).toBe("lookup_order");
      expect(sent.at(-1).content).toBe("Are you sure?");

      const job = `job-${crypto.randomUUID()}`;
      const answers = await Promise.all([a, b].map(async (s) => (await post(`${s.url}/agents/Support/invoice`, { job_id: job })).json()));
      expect(answers[0]).toEqual(answers[1]);
      expect((answers[0] as { receipt: string }).receipt).toStartWith(`R-${job}-`);
      expect(readFileSync(runs, "utf8")).toBe(`${job}\n`);
      if (backend === "postgres") {
        // Two chat turns and two method calls, on two processes: four runs of one journal, every one finished.
        const listed = Bun.spawnSync([ensureBinary(), "runs", "--format", "json"], { cwd: dir, env: { ...process.env, ...env } });
        expect(listed.exitCode).toBe(0);
        const journalRuns = (JSON.parse(listed.stdout.toString()) as { runs: { run: string; status: string }[] }).runs;
        expect(journalRuns.map((r) => r.status)).toEqual(["finished", "finished", "finished", "finished"]);
        expect(new Set(journalRuns.map((r) => r.run)).size).toBe(4);
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

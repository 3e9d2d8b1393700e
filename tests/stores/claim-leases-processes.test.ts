/**
 * Issue #10 items 2 and 3 through the real `dist/luma`, on every persistent backend (file,
 * sqlite, postgres, redis; the memory store's side is in tests/pipeline/timed-out-claims):
 *   - a handler that ignores its AbortSignal times out; the program retries the call again
 *     and again (and the tool has `retries`), and a second process calls the same key
 *     meanwhile: the handler runs exactly once, and once it settles its result replays;
 *   - a handler that runs longer than its claim's lease (LUMA_TEST_LEASE_MS shortens the
 *     lease; the heartbeat renews it): a second process never runs the key, it replays;
 *   - a worker frozen (SIGSTOP) past its lease loses the claim: another worker runs the key,
 *     and the frozen one, resumed, cannot overwrite the winner's record (fencing).
 * Executions are counted in the handler's O_APPEND side-effect log, outside the store.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { underCi } from "./conformance/service-urls";
import { STORE_BACKENDS } from "./conformance/store-backends";
import { makeStoreProject, type ProjectBackend } from "./support/store-project";

const BACKENDS: ProjectBackend[] = ["file", "sqlite", "postgres", "redis"];

/** Tries the same key until it replays: a program's own retry loop around a timing-out call. */
const RETRYING = `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  timeout: 200
  retries: 2
}
for attempt in [${Array.from({ length: 40 }, (_, i) => i).join(", ")}] {
  try {
    r = tool db_write({ request_id: "slow", value: "value-slow" })
    print("ok", r.value)
  } catch e {
    print(e.code, e.message)
  }
}
`;

/** Prints what the call returned: whose record a process got. */
const ONE_CALL = `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  timeout: 10000
}
print(tool db_write({ request_id: "k", value: "v" }).value)
`;

const TIMED_OUT =
  "TOOL_TIMEOUT Tool 'db_write' timed out after 200 ms. Its outcome is unknown: the idempotency key (request_id) stays claimed until the handler settles.";
const OUTCOME_UNKNOWN =
  "TOOL_IDEMPOTENCY_CONFLICT Tool 'db_write': outcome unknown: an earlier call with the same idempotency key (request_id) timed out, and its handler was still running when this call had waited 200 ms; the key stays claimed until it settles.";
const STILL_RUNNING =
  "TOOL_IDEMPOTENCY_CONFLICT Tool 'db_write': a call with the same idempotency key (request_id) was still running after 200 ms.";

/** Resolves once `ready()` holds (polling; the test's timeout bounds the wait). */
const waitUntil = async (ready: () => boolean): Promise<void> => {
  for (let pause = 5; !ready(); pause = Math.min(pause * 2, 50)) await Bun.sleep(pause);
};

/** Resolves once `file` holds `text` (the handler has started). */
const waitForText = (file: string, text: string): Promise<void> => waitUntil(() => existsSync(file) && readFileSync(file, "utf8").includes(text));

for (const name of BACKENDS) {
  const reason = STORE_BACKENDS.find((b) => b.name === name)!.unavailable();
  const run = reason === undefined || underCi() ? test : test.skip;
  const label = (t: string) => (reason && !underCi() ? `${t} (skipped: ${reason})` : t);
  const guard = () => {
    if (reason) throw new Error(`${name}: ${reason}`);
  };

  describe(`§9 + §11 ${name} store: a claim stays while its handler runs`, () => {
    run(label("a handler that ignores its AbortSignal: timeout + tool retries + the program's retries + a second process → exactly one execution"), async () => {
      guard();
      const project = await makeStoreProject(name, { program: RETRYING });
      try {
        // The handler runs until the test lets it go, once the second process has met the
        // claim (its first line printed): a fixed 1.5 s handler let a slow second process
        // start only after it had settled, and see nothing but replays.
        const gate = join(project.dir, "release");
        const env = { HANDLER_GATE: gate };
        const first = project.start([], env);
        await waitForText(project.effectsLog, "slow");
        const pending = project.start([], env);
        let ended = false; // a second process that dies before printing fails below, not by hanging here
        void pending.done.then(() => (ended = true));
        await waitUntil(() => ended || pending.stdoutSoFar().includes("\n"));
        writeFileSync(gate, "");
        const second = await pending.done;
        const firstRun = await first.done;
        for (const r of [firstRun, second]) {
          expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 0, stderr: "" });
          const lines = r.stdout.trimEnd().split("\n");
          expect(lines.length).toBe(40);
          // Once the handler settled its result is recorded: every later attempt replays it.
          const firstOk = lines.indexOf("ok value-slow");
          expect(firstOk).toBeGreaterThan(0);
          expect(lines.slice(firstOk).every((l) => l === "ok value-slow")).toBe(true);
          expect(lines.slice(0, firstOk).every((l) => [TIMED_OUT, OUTCOME_UNKNOWN, STILL_RUNNING].includes(l))).toBe(true);
        }
        const firstLines = firstRun.stdout.split("\n");
        expect(firstLines[0]).toBe(TIMED_OUT); // the call that timed out says the outcome is unknown
        if (firstLines[1] !== "ok value-slow") expect(firstLines[1]).toBe(OUTCOME_UNKNOWN); // its retries know why they wait
        expect(second.stdout).not.toContain("TOOL_TIMEOUT"); // the second process never ran the handler
        expect(project.effects().get("slow")).toBe(1);
      } finally {
        await project.cleanup();
      }
    }, 60_000);

    run(label("a handler longer than its claim's lease: the heartbeat keeps the claim; a second process replays, never runs it"), async () => {
      guard();
      const project = await makeStoreProject(name, { timeoutMs: 10_000 });
      try {
        const env = { HANDLER_MS: "1500", LUMA_TEST_LEASE_MS: "300" }; // lease 300 ms, renewed every 100 ms
        const first = project.start(["long"], env);
        await waitForText(project.effectsLog, "long");
        const second = await project.run(["long"], env);
        expect(await first.done).toEqual({ exitCode: 0, stdout: "done\n", stderr: "" });
        expect(second).toEqual({ exitCode: 0, stdout: "done\n", stderr: "" });
        expect(project.effects().get("long")).toBe(1);
      } finally {
        await project.cleanup();
      }
    }, 60_000);

    run(label("a worker frozen past its lease loses it: the other worker runs the key; resumed, the frozen one cannot overwrite the winner's record"), async () => {
      guard();
      const project = await makeStoreProject(name, { program: ONE_CALL });
      try {
        const lease = { LUMA_TEST_LEASE_MS: "300" };
        const frozen = project.start([], { ...lease, HANDLER_MS: "1500", VALUE_TAG: "-frozen" });
        await waitForText(project.effectsLog, " k");
        process.kill(frozen.pid, "SIGSTOP"); // no heartbeat can run now
        try {
          await Bun.sleep(600); // past any lease its last beat set
          const winner = await project.run([], { ...lease, VALUE_TAG: "-winner" });
          expect(winner).toEqual({ exitCode: 0, stdout: "v-winner\n", stderr: "" });
        } finally {
          process.kill(frozen.pid, "SIGCONT");
        }
        // Resumed, its handler finishes and the caller gets what its handler returned; its
        // renewals fail and its completion is fenced off.
        expect(await frozen.done).toEqual({ exitCode: 0, stdout: "v-frozen\n", stderr: "" });
        expect(await project.run([], lease)).toEqual({ exitCode: 0, stdout: "v-winner\n", stderr: "" });
        expect(project.effects().get("k")).toBe(2); // the frozen one and the winner; the replay ran nothing
      } finally {
        await project.cleanup();
      }
    }, 60_000);
  });
}

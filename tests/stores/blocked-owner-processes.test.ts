/**
 * Hardening round 3, item 3, through the real `dist/luma` on every persistent backend (file,
 * sqlite, postgres, redis): a handler that blocks its process's thread (`Atomics.wait`, as
 * a synchronous SDK or a big parse would) past its claim's lease stops the heartbeat, but
 * not the owner: a second process calling the same key meanwhile must not run it. It waits,
 * and replays the blocked owner's result once that settles. On one machine the store checks
 * the owner's pid and start time (src/runtime/stores/claim-owner.ts); for the stores
 * shared between machines (postgres, redis) the two processes also play two machines
 * (LUMA_TEST_HOST), where only the owner's off-thread renewals (a worker with its own
 * connection, off-thread-renewal.ts) keep the claim. A stopped owner — SIGSTOP — still
 * loses its claim: claim-leases-processes.test.ts.
 * Executions are counted in the handler's O_APPEND side-effect log, outside the store.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { underCi } from "./conformance/service-urls";
import { ensureBinary } from "../support/luma-binary";
import { STORE_BACKENDS } from "./conformance/store-backends";
import { makeStoreProject, type ProjectBackend } from "./support/store-project";

const BACKENDS: ProjectBackend[] = ["file", "sqlite", "postgres", "redis"];
/**
 * Where the second process runs: this machine, or (shared stores) one of another name — and
 * once as a `luma build` executable, whose worker thread must start as it does in `dist/luma`.
 */
const PLACES = (b: ProjectBackend) =>
  b === "postgres" ? ["one machine", "two machines", "two machines, built agent"] : b === "redis" ? ["one machine", "two machines"] : ["one machine"];

/** Says when it is about to call (so the test knows the second process reached the claim). */
const ONE_CALL = `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  timeout: 20000
}
print("calling")
print(tool db_write({ request_id: "k", value: "v" }).value)
`;

const waitUntil = async (ready: () => boolean): Promise<void> => {
  for (let pause = 5; !ready(); pause = Math.min(pause * 2, 50)) await Bun.sleep(pause);
};

for (const name of BACKENDS) {
  const reason = STORE_BACKENDS.find((b) => b.name === name)!.unavailable();
  const run = reason === undefined || underCi() ? test : test.skip;
  const label = (t: string) => (reason && !underCi() ? `${t} (skipped: ${reason})` : t);

  describe(`${name} store: an owner whose handler blocks its thread keeps its claim`, () => {
    for (const place of PLACES(name)) {
      run(
        label(`${place}: the handler blocks past the lease (no main-thread heartbeat can run); a second process waits and replays, never runs the key`),
        async () => {
          if (reason) throw new Error(`${name}: ${reason}`);
          const project = await makeStoreProject(name, { program: ONE_CALL });
          try {
            const hosts = place.startsWith("two machines") ? ["machine-a", "machine-b"] : ["", ""]; // "": the real host name
            let command: string[] | undefined;
            if (place.endsWith("built agent")) {
              const built = Bun.spawnSync([ensureBinary(), "build", "program.luma", "-o", "agent"], {
                cwd: project.dir,
                env: { PATH: process.env.PATH, HOME: process.env.HOME },
              });
              expect({ exitCode: built.exitCode, stderr: built.stderr.toString() }).toEqual({ exitCode: 0, stderr: "" });
              command = [join(project.dir, "agent")];
            }
            const lease = { LUMA_TEST_LEASE_MS: "1000" }; // renewed every 333 ms
            const gate = join(project.dir, "unblock");
            const blocked = project.start([], { ...lease, LUMA_TEST_HOST: hosts[0], HANDLER_BLOCK_GATE: gate, VALUE_TAG: "-blocked" }, command);
            await waitUntil(() => existsSync(project.effectsLog) && readFileSync(project.effectsLog, "utf8").includes(" k"));
            await Bun.sleep(2500); // the thread is blocked since the claim: its lease has passed
            const second = project.start([], { ...lease, LUMA_TEST_HOST: hosts[1], VALUE_TAG: "-second" }, command);
            let ended = false;
            void second.done.then(() => (ended = true));
            await waitUntil(() => ended || second.stdoutSoFar().includes("calling\n"));
            // Room for the second process to claim (and, before the fix, run) the key: it either
            // ran it (a second line in the log) or is waiting on the blocked owner.
            const deadline = Date.now() + 1500;
            await waitUntil(() => ended || Date.now() > deadline || project.effects().get("k") !== 1);
            writeFileSync(gate, "");
            expect(await blocked.done).toEqual({ exitCode: 0, stdout: "calling\nv-blocked\n", stderr: "" });
            expect(await second.done).toEqual({ exitCode: 0, stdout: "calling\nv-blocked\n", stderr: "" });
            expect(project.effects().get("k")).toBe(1);
          } finally {
            await project.cleanup();
          }
        },
        60_000,
      );
    }
  });
}

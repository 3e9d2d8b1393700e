/**
 * A throwaway Luma project for the store's process tests: a program that calls an
 * idempotent write tool once per key given as an argument, a tool module whose handler
 * appends `<pid> <key>` to a side-effect log (O_APPEND, so concurrent writers never mix
 * lines) and returns a value derived from the key, and a luma.config.json with a file store.
 */
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../../support/luma-binary";
import { freshDir } from "./store-fixture";

export const PASSPHRASE = "process-test passphrase";

const PROGRAM = `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
}
for id in args {
  r = tool db_write({ request_id: id, value: "value-{id}" })
  if r.value != "value-{id}" {
    print("wrong result for", id)
  }
}
print("done")
`;

const TOOLS = `
import { appendFileSync } from "node:fs";
export const lumaTools = {
  db_write: async (input: { request_id: string; value: string }) => {
    appendFileSync(process.env.EFFECTS_LOG!, process.pid + " " + input.request_id + "\\n");
    const ms = Number(process.env.HANDLER_MS ?? 0);
    if (ms > 0) await Bun.sleep(ms);
    return { id: input.request_id, value: input.value };
  },
};
`;

export interface Project {
  dir: string;
  storePath: string;
  effectsLog: string;
  /** Starts `luma program.luma <keys…>`; resolves with its exit code (null if killed) and output. */
  run(keys: string[], env?: Record<string, string>): Promise<{ exitCode: number | null; signal: string | number | null; stdout: string; stderr: string }>;
  /** How many times each key's handler ran, from the side-effect log. */
  effects(): Map<string, number>;
}

export const makeProject = (opts: { encrypted?: boolean } = {}): Project => {
  const dir = freshDir();
  const store = { backend: "file", path: "state/idem.json", ...(opts.encrypted ? { encryption: "aes-256-gcm" } : {}) };
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"], idempotency_store: store }));
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  writeFileSync(join(dir, "program.luma"), PROGRAM);
  const effectsLog = join(dir, "effects.log");
  const bin = ensureBinary();
  return {
    dir,
    storePath: join(dir, "state", "idem.json"),
    effectsLog,
    async run(keys, env = {}) {
      const proc = Bun.spawn([bin, "program.luma", ...keys], {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NO_COLOR: "1",
          LUMA_NO_CACHE: "1",
          EFFECTS_LOG: effectsLog,
          ...(opts.encrypted ? { LUMA_IDEMPOTENCY_KEY: PASSPHRASE } : {}),
          ...env,
        },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      return { exitCode: proc.exitCode, signal: proc.signalCode, stdout, stderr };
    },
    effects() {
      const counts = new Map<string, number>();
      if (!existsSync(effectsLog)) return counts;
      for (const line of readFileSync(effectsLog, "utf8").split("\n")) {
        if (line === "") continue;
        const key = line.split(" ")[1];
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return counts;
    },
  };
};

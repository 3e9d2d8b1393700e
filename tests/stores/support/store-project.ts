/**
 * A throwaway Luma project for the store's process tests, on any persistent backend: the
 * program calls an idempotent write tool once per key given as an argument; the handler
 * appends `<pid> <key>` to a side-effect log (O_APPEND, so concurrent writers never mix
 * lines) and returns a value derived from the key, so executions are counted outside the
 * store (VALUE_TAG, when set, is appended to the value: which worker's result a record
 * holds; HANDLER_GATE, when set, names a file the handler waits for before it returns, so a
 * test ends the handler on an event instead of guessing a duration; HANDLER_BLOCK_GATE does
 * the same while blocking the process's thread, `Atomics.wait`, as a synchronous SDK would). The file and sqlite stores live under `state/` in the project; a network store's
 * URL travels in LUMA_STORE_URL (`url_env`), never in the config file, and each project
 * gets a store of its own on the server (backends/support/isolated-store-url.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../../support/luma-binary";
import { isolatedUrl } from "../backends/support/isolated-store-url";
import { freshDir } from "./store-fixture";

export const PASSPHRASE = "process-test passphrase";

export type SharedBackend = "sqlite" | "postgres" | "redis";
export type ProjectBackend = "file" | SharedBackend;

const program = (timeoutMs: number) => `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  timeout: ${timeoutMs}
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
import { appendFileSync, existsSync } from "node:fs";
export const lumaTools = {
  db_write: async (input: { request_id: string; value: string }) => {
    appendFileSync(process.env.EFFECTS_LOG!, process.pid + " " + input.request_id + "\\n");
    const ms = Number(process.env.HANDLER_MS ?? 0);
    if (ms > 0) await Bun.sleep(ms);
    const gate = process.env.HANDLER_GATE;
    if (gate) while (!existsSync(gate)) await Bun.sleep(10);
    const blockGate = process.env.HANDLER_BLOCK_GATE;
    if (blockGate) {
      // A synchronous handler: the thread (and every timer on it) stops until the file exists.
      const cell = new Int32Array(new SharedArrayBuffer(4));
      while (!existsSync(blockGate)) Atomics.wait(cell, 0, 0, 20);
    }
    return { id: input.request_id, value: input.value + (process.env.VALUE_TAG ?? "") };
  },
};
`;

/** Where each backend keeps its records: a path in the project, or the server (url_env). */
const STORE_CONFIG: Record<ProjectBackend, Record<string, string>> = {
  file: { backend: "file", path: "state/idem.json" },
  sqlite: { backend: "sqlite", path: "state/idem.sqlite" },
  postgres: { backend: "postgres", url_env: "LUMA_STORE_URL" },
  redis: { backend: "redis", url_env: "LUMA_STORE_URL" },
};

export interface RunResult {
  exitCode: number | null;
  /** The signal that ended the process; absent when it exited on its own. */
  signal?: string | number;
  stdout: string;
  stderr: string;
}

export interface StoreProjectOptions {
  encrypted?: boolean;
  /** The tool's `timeout` (default 30 s, the default tool timeout). */
  timeoutMs?: number;
  /** Overrides the store's `path` in luma.config.json (file and sqlite). */
  storePath?: string;
  /** Replaces the program (`db_write` as above, with its options); the handler stays. */
  program?: string;
}

export interface StoreProject {
  dir: string;
  /** The store's file (file and sqlite), absolute; undefined for a network backend. */
  storePath: string | undefined;
  effectsLog: string;
  /** Starts `luma program.luma <keys…>` — or `command <keys…>`, a built agent (the test may kill it mid-call). */
  start(keys: string[], env?: Record<string, string>, command?: string[]): { pid: number; done: Promise<RunResult>; kill9(): void; stdoutSoFar(): string };
  run(keys: string[], env?: Record<string, string>): Promise<RunResult>;
  /** How many times each key's handler ran, from the side-effect log. */
  effects(): Map<string, number>;
  /** Drops the project's schema / keys on the server (nothing for file and sqlite). */
  cleanup(): Promise<void>;
}

export const makeStoreProject = async (backend: ProjectBackend, opts: StoreProjectOptions = {}): Promise<StoreProject> => {
  const dir = freshDir();
  const store: Record<string, string> = { ...STORE_CONFIG[backend], ...(opts.storePath ? { path: opts.storePath } : {}) };
  if (opts.encrypted) store.encryption = "aes-256-gcm";
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"], idempotency_store: store }));
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  writeFileSync(join(dir, "program.luma"), opts.program ?? program(opts.timeoutMs ?? 30_000));
  const effectsLog = join(dir, "effects.log");
  const bin = ensureBinary();
  const { url, cleanup } = await isolatedUrl(backend);
  const start = (keys: string[], env: Record<string, string> = {}, command = [bin, "program.luma"]) => {
    const proc = Bun.spawn([...command, ...keys], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NO_COLOR: "1",
        LUMA_NO_CACHE: "1",
        EFFECTS_LOG: effectsLog,
        ...(url ? { LUMA_STORE_URL: url } : {}),
        ...(opts.encrypted ? { LUMA_IDEMPOTENCY_KEY: PASSPHRASE } : {}),
        ...env,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    // stdout is read as it comes, so a test can wait for a line the program printed.
    let stdout = "";
    const readStdout = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of proc.stdout) stdout += decoder.decode(chunk, { stream: true });
      stdout += decoder.decode();
    })();
    const done = (async (): Promise<RunResult> => {
      const [, stderr] = await Promise.all([readStdout, new Response(proc.stderr).text()]);
      await proc.exited;
      return { exitCode: proc.exitCode, ...(proc.signalCode ? { signal: proc.signalCode } : {}), stdout, stderr };
    })();
    return { pid: proc.pid, done, kill9: () => proc.kill("SIGKILL"), stdoutSoFar: () => stdout };
  };
  return {
    dir,
    storePath: store.path === undefined ? undefined : join(dir, store.path),
    effectsLog,
    cleanup,
    start,
    run: (keys, env) => start(keys, env).done,
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

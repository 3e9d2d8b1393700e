/**
 * Drives a store worker process from a test: send a command, read its one-line answer.
 * The file store's worker is support/store-worker.ts (`bun store-worker.ts <store path>`,
 * with lock-holding commands of its own); every other backend's is
 * backends/support/backend-worker.ts (`bun backend-worker.ts <backend> <place>`).
 */
import { join } from "node:path";

export interface StoreWorker {
  pid: number;
  send(cmd: object): Promise<Record<string, unknown>>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

const commandFor = (backend: string, place: string): string[] =>
  backend === "file"
    ? ["bun", join(import.meta.dir, "store-worker.ts"), place]
    : ["bun", join(import.meta.dir, "../backends/support/backend-worker.ts"), backend, place];

export const startStoreWorker = async (backend: string, place: string, env: Record<string, string> = {}): Promise<StoreWorker> => {
  const proc = Bun.spawn(commandFor(backend, place), {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    // The file worker gets a bare environment (its encryption follows LUMA_IDEMPOTENCY_KEY);
    // the others need the test servers' URLs from this one.
    env: backend === "file" ? { PATH: process.env.PATH, HOME: process.env.HOME, ...env } : { ...process.env, ...env },
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const nextLine = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const nl = buffered.indexOf("\n");
      if (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        return JSON.parse(line);
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`${backend} store worker exited`);
      buffered += decoder.decode(value);
    }
  };
  await nextLine(); // {"ready":true}
  return {
    pid: proc.pid,
    async send(cmd) {
      proc.stdin.write(JSON.stringify(cmd) + "\n");
      proc.stdin.flush();
      return nextLine();
    },
    async kill9() {
      proc.kill("SIGKILL");
      await proc.exited;
    },
    async stop() {
      proc.stdin.end();
      proc.kill();
      await proc.exited;
    },
  };
};

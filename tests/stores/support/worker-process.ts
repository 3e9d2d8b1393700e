/** Drives support/store-worker.ts from a test: send a command, read its one-line answer. */
import { join } from "node:path";

export interface Worker {
  pid: number;
  send(cmd: object): Promise<Record<string, unknown>>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export const startWorker = async (storePath: string, env: Record<string, string> = {}): Promise<Worker> => {
  const proc = Bun.spawn(["bun", join(import.meta.dir, "store-worker.ts"), storePath], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  const reader = proc.stdout.getReader();
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
      if (done) throw new Error("store worker exited");
      buffered += new TextDecoder().decode(value);
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

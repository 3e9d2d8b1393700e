/** Drives support/backend-worker.ts from a test: send a command, read its one-line answer. */
import { join } from "node:path";

export interface BackendWorker {
  pid: number;
  send(cmd: object): Promise<Record<string, unknown>>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export const startBackendWorker = async (backend: string, place: string, env: Record<string, string> = {}): Promise<BackendWorker> => {
  const proc = Bun.spawn(["bun", join(import.meta.dir, "backend-worker.ts"), backend, place], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, ...env },
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
      if (done) throw new Error("backend worker exited");
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

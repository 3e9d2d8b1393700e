/**
 * The y/N question of `tool_policy: "approval"` (spec §8), asked only when stdin is an
 * interactive terminal. Anything but "y"/"yes" — including end of input — is a refusal:
 * approval fails closed.
 *
 * The question goes to the terminal itself (/dev/tty), so it is seen even when stdout and
 * stderr are redirected, and the answer is read from a blocking descriptor of that same
 * terminal: the process sleeps in read(2) while the user thinks, instead of spinning on a
 * non-blocking stdin. Where /dev/tty cannot be opened, stderr and stdin are used.
 *
 * The question is preceded by the call it is about, so a person can decide:
 *   Write tool 'publish' is called with {"text":"hello"}
 *   Allow write tool 'publish' to run? [y/N]
 * (the arguments already redacted and cut by the pipeline, step 05).
 *
 * It is the CLI's (it talks to the terminal): `main.ts` hands it to the runtime as the run's
 * `approve` callback, and the runtime asks through that callback only when stdin is interactive.
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";

export const openTty = (flags: "r" | "w"): number | undefined => {
  try {
    return openSync("/dev/tty", flags);
  } catch {
    return undefined;
  }
};

export function readLine(fd: number): string {
  const buf = Buffer.alloc(1);
  const bytes: number[] = [];
  for (;;) {
    let n = 0;
    try {
      n = readSync(fd, buf, 0, 1, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // stdin fallback only
        continue;
      }
      break;
    }
    if (n === 0 || buf[0] === 0x0a) break;
    bytes.push(buf[0]);
  }
  return Buffer.from(bytes).toString("utf8");
}

/** `writes`: false for a read tool that asks because it says `approval: true` (the question then says "tool", not "write tool"). */
export async function askOnTerminal(tool: string, args: string, _withinMs?: number, writes = true): Promise<boolean> {
  const out = openTty("w");
  const input = openTty("r");
  const noun = writes ? "write tool" : "tool";
  try {
    writeSync(out ?? 2, `${writes ? "Write tool" : "Tool"} '${tool}' is called with ${args}\nAllow ${noun} '${tool}' to run? [y/N] `);
    const answer = readLine(input ?? 0).trim().toLowerCase();
    return answer === "y" || answer === "yes";
  } finally {
    if (out !== undefined) closeSync(out);
    if (input !== undefined) closeSync(input);
  }
}

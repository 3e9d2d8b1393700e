/**
 * The y/N question of `tool_policy: "approval"` (spec §8), asked only when stdin is an
 * interactive terminal. Anything but "y"/"yes" — including end of input — is a refusal:
 * approval fails closed.
 */
import { readSync, writeSync } from "node:fs";

function readLineFromStdin(): string {
  const buf = Buffer.alloc(1);
  let line = "";
  for (;;) {
    let n = 0;
    try {
      n = readSync(0, buf, 0, 1, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") continue;
      return line;
    }
    if (n === 0) return line;
    const ch = buf.toString("utf8", 0, 1);
    if (ch === "\n") return line;
    line += ch;
  }
}

export async function askOnTerminal(tool: string): Promise<boolean> {
  writeSync(2, `Allow write tool '${tool}' to run? [y/N] `);
  const answer = readLineFromStdin().trim().toLowerCase();
  return answer === "y" || answer === "yes";
}

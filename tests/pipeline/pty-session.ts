/**
 * Runs a command on a real pseudo-terminal with util-linux `script`, so the program sees an
 * interactive terminal (isatty, /dev/tty) exactly as under a user's shell — nothing mocked.
 * `waitFor(text)` reads the terminal output until `text` appears; `type(line)` types a line.
 */
export const hasScript = (): boolean => Bun.spawnSync(["sh", "-c", "command -v script"]).exitCode === 0;

export interface PtySession {
  waitFor(text: string): Promise<string>;
  type(line: string): void;
  /** Waits for the program to end: its exit code and the whole terminal output (CRLF → LF). */
  finish(): Promise<{ exitCode: number; output: string }>;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export const startOnPty = (argv: string[], opts: { cwd: string; env: Record<string, string | undefined> }): PtySession => {
  const proc = Bun.spawn(["script", "-qec", argv.map(shellQuote).join(" "), "/dev/null"], {
    cwd: opts.cwd,
    env: opts.env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let output = "";
  const readMore = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    output += decoder.decode(value);
    return true;
  };
  return {
    async waitFor(text) {
      while (!output.includes(text)) {
        if (!(await readMore())) throw new Error(`the program ended before printing ${JSON.stringify(text)}; output: ${JSON.stringify(output)}`);
      }
      return output;
    },
    type(line) {
      proc.stdin.write(line + "\n");
      proc.stdin.flush();
    },
    async finish() {
      while (await readMore());
      const exitCode = await proc.exited;
      proc.stdin.end();
      return { exitCode, output: output.replace(/\r\n/g, "\n") };
    },
  };
};

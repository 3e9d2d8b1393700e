/**
 * Test support for `luma ui`: a project in a temp directory (a journaled program whose agent
 * asks in a stored thread and calls tools, then makes a call that waits for approval), the
 * real `dist/luma ui` serving it on a free port, and headless Chromium (Debian's package)
 * driven by playwright-core. Without Chromium the browser tests skip saying so — except under
 * CI=true, where its absence fails them (.ci/services/chromium.sh installs it).
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";

export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));

/** Skip (saying why) without Chromium; under CI its absence is a failure. */
export const browserAvailable = (): boolean => {
  if (CHROMIUM !== undefined) return true;
  if (process.env.CI === "true") throw new Error("Chromium is missing under CI=true: .ci/services/chromium.sh installs it (apt-get install chromium)");
  console.warn("tests/ui: skipped — no Chromium at /usr/bin/chromium (apt-get install -y chromium, or run .ci/services/chromium.sh)");
  return false;
};

export const TOOLS_TS = `
import { existsSync } from "node:fs";
import { join } from "node:path";
const dir = process.env.PROJECT_DIR;
export const tools = {
  effect: (input) => ({ done: input.n }),
  send_invoice: (input) => ({ done: input.n * 10 }),
  gate: async (input) => {
    while (!existsSync(join(dir, "release-" + input.n))) await Bun.sleep(20);
    return { done: input.n };
  },
};
`;

export const PROGRAM = `
model M {
  provider: "openai"
  name: "gpt-5.4-mini"
  price_in_per_mtok: 0.25
  price_out_per_mtok: 2.0
}
schema Done { done: int }
schema Answer { total: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
tool send_invoice(n: int, api_token: string) -> Done {
  side_effects: "write"
  approval: true
}
agent Worker {
  model: M
  tools: [effect]
  fn run(t: Thread) -> Answer {
    ask "Call effect with 1 and 2, then answer the total." -> Answer in t
  }
}
t = thread("customer-42")
a = Worker.run(t)
print("total", a.total)
r = tool send_invoice({ n: a.total, api_token: "tok-secret-123" })
print("sent", r.done)
`;

/** Three gated steps: each waits for the file release-<n>, so a test sees the run between them. */
export const GATED = `
schema Done { done: int }
tool gate(n: int) -> Done {
  side_effects: "write"
  timeout: 60000
}
for n in [1, 2, 3] {
  r = tool gate({ n: n })
  print("gate", r.done)
}
`;

/** Two parallel branches, each calling a function that makes two tool calls: steps that interleave in time. */
export const NESTED = `
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
fn twice(n: int) -> int {
  a = tool effect({ n: n })
  b = tool effect({ n: n + 1 })
  return a.done + b.done
}
parallel {
  x = twice(1)
  y = twice(10)
}
print(x + y)
`;

export interface Proc {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export class UiProject {
  readonly dir = mkdtempSync(join(tmpdir(), "luma-ui-"));
  private servers: { kill(): void }[] = [];

  constructor() {
    writeFileSync(join(this.dir, "tools.ts"), TOOLS_TS);
    writeFileSync(join(this.dir, "flow.luma"), PROGRAM);
    writeFileSync(join(this.dir, "gated.luma"), GATED);
    writeFileSync(join(this.dir, "nested.luma"), NESTED);
    writeFileSync(
      join(this.dir, "luma.config.json"),
      JSON.stringify({ tool_modules: ["./tools.ts"], journal: { backend: "sqlite", path: "runs.sqlite" }, threads: { backend: "sqlite", path: "threads.sqlite" } }),
    );
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  spawn(args: string[], env: Record<string, string | undefined> = {}) {
    return Bun.spawn([ensureBinary(), ...args], {
      cwd: this.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", PROJECT_DIR: this.dir, ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  }

  async run(args: string[], env: Record<string, string | undefined> = {}): Promise<Proc> {
    const p = this.spawn(args, env);
    const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { exitCode, stdout, stderr };
  }

  /** `luma ui …` on a free port; answers the URL it prints once it serves. */
  async serve(args: string[] = [], env: Record<string, string | undefined> = {}): Promise<string> {
    const p = this.spawn(["ui", "--http", "127.0.0.1:0", ...args], env);
    this.servers.push(p);
    const reader = p.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`luma ui exited: ${await new Response(p.stderr).text()}`);
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const m = /luma ui: (http:\/\/\S+)/.exec(text);
    if (m === null) throw new Error(`luma ui printed ${text}`);
    return m[1];
  }

  stop(): void {
    for (const s of this.servers) s.kill();
  }
}

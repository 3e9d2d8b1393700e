/**
 * Spec §8 `tool_policy: "approval"` end to end, on a real pseudo-terminal: a write tool not
 * listed in LUMA_APPROVED_TOOLS is asked about with a y/N question on the terminal; only
 * "y"/"yes" runs it. Without a terminal the call is refused without asking.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";
import { hasScript, startOnPty } from "./pty-session";

const PROGRAM = `
schema Published { ok: bool  text: string }
tool publish(text: string) -> Published { side_effects: "write" }
tool preview(text: string) -> Published { side_effects: "read" }
agent Editor {
  tools: [publish, preview]
  tool_policy: "approval"
  fn go() -> any {
    p = tool preview({ text: "draft" })
    print("previewed", p.text)
    try {
      r = tool publish({ text: "hello" })
      print("published", r.text)
    } catch e {
      print("refused", e.code, e.message)
    }
  }
}
Editor.go()
`;

const PROMPT = "Allow write tool 'publish' to run? [y/N] ";

const project = (program = PROGRAM) => {
  const dir = mkdtempSync(join(tmpdir(), "luma-approval-"));
  writeFileSync(join(dir, "tools.ts"), "export const lumaTools = { publish: (i: { text: string }) => ({ ok: true, text: i.text }), preview: (i: { text: string }) => ({ ok: true, text: i.text }) };\n");
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"] }));
  writeFileSync(join(dir, "main.luma"), program);
  return dir;
};

const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", LUMA_NO_CACHE: "1", TERM: "dumb", ...extra });

const ptyAvailable = hasScript();
if (!ptyAvailable && process.env.CI === "true") throw new Error("util-linux `script` is required for the approval prompt tests in CI");
const onPty = ptyAvailable ? test : test.skip; // skipped (not faked) where no `script` is installed

/** Runs main.luma on a terminal, answers the prompt with `answer` once it is shown. */
const answerWith = async (answer: string, extraEnv: Record<string, string> = {}, argv = [ensureBinary(), "main.luma"]) => {
  const session = startOnPty(argv, { cwd: project(), env: env(extraEnv) });
  const before = await session.waitFor(PROMPT);
  expect(before).toContain("previewed draft"); // a read tool is never asked about
  session.type(answer);
  return session.finish();
};

describe("§8 tool_policy approval on an interactive terminal", () => {
  onPty("the user is asked on the terminal; 'y' runs the write tool", async () => {
    const r = await answerWith("y");
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain(`${PROMPT}y\npublished hello\n`);
  });

  onPty("'yes' (any case) runs it too", async () => {
    const r = await answerWith("YES");
    expect(r.output).toContain("published hello\n");
  });

  for (const [name, answer] of [["'n'", "n"], ["an empty answer (the default is No)", ""], ["anything else", "sure"]] as const) {
    onPty(`${name} refuses it: TOOL_PERMISSION_DENIED, the tool does not run`, async () => {
      const r = await answerWith(answer);
      expect(r.exitCode).toBe(0);
      expect(r.output).toContain("refused TOOL_PERMISSION_DENIED Tool 'publish' was not approved.\n");
      expect(r.output).not.toContain("published");
    });
  }

  onPty("the question reaches the terminal even when stdout and stderr are redirected", async () => {
    const dir = project();
    const session = startOnPty(["sh", "-c", `${ensureBinary()} main.luma >out.txt 2>err.txt`], { cwd: dir, env: env() });
    await session.waitFor(PROMPT);
    session.type("y");
    expect((await session.finish()).exitCode).toBe(0);
    expect(await Bun.file(join(dir, "out.txt")).text()).toBe("previewed draft\npublished hello\n");
  });

  onPty("issue #12.12: the question shows the call — the tool and its arguments — above it", async () => {
    const r = await answerWith("y");
    expect(r.output).toMatch(/Write tool 'publish' is called with \{"text":"hello"\}\r?\nAllow write tool 'publish' to run\? \[y\/N\] y/);
  });

  onPty("issue #12.12: long arguments are cut, the credential's value and secret-named fields never shown", async () => {
    const long = "x".repeat(2000);
    const program = PROGRAM.replace('tool publish(text: string) -> Published { side_effects: "write" }', 'tool publish(text: string, api_token?: string, note?: string) -> Published { side_effects: "write", credential: "PUBLISH_KEY" }')
      .replace('tool publish({ text: "hello" })', `tool publish({ note: "key is sk-live-999", api_token: "tok-123", text: "${long}" })`);
    const session = startOnPty([ensureBinary(), "main.luma"], { cwd: project(program), env: env({ PUBLISH_KEY: "sk-live-999" }) });
    const shown = await session.waitFor(PROMPT);
    session.type("n");
    const r = await session.finish();
    expect(shown).toContain(`Write tool 'publish' is called with {"note":"[redacted]","api_token":"[redacted]","text":"${"x".repeat(300)}`);
    expect(shown).toContain("…");
    expect(shown).not.toContain("x".repeat(600));
    expect(r.output).not.toContain("tok-123");
    expect(r.output).not.toContain("sk-live-999");
  });

  onPty("a tool listed in LUMA_APPROVED_TOOLS runs without a question", async () => {
    const session = startOnPty([ensureBinary(), "main.luma"], { cwd: project(), env: env({ LUMA_APPROVED_TOOLS: "other, publish" }) });
    const r = await session.finish();
    expect(r.output).toBe("previewed draft\npublished hello\n");
  });
});

describe("§8 tool_policy approval without a terminal", () => {
  test("not interactive: refused without asking", () => {
    const r = runLuma(["main.luma"], { cwd: project(), stdin: "y\n" });
    expect(r).toEqual({
      exitCode: 0,
      stdout:
        "previewed draft\nrefused TOOL_PERMISSION_DENIED Tool 'publish' needs approval: it is not listed in LUMA_APPROVED_TOOLS and no interactive terminal can approve it.\n",
      stderr: "",
    });
  });

  test("not interactive but listed in LUMA_APPROVED_TOOLS: runs", () => {
    const r = runLuma(["main.luma"], { cwd: project(), env: { LUMA_APPROVED_TOOLS: "publish" } });
    expect(r.stdout).toBe("previewed draft\npublished hello\n");
  });
});

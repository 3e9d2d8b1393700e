/**
 * Issue #26 §1, threads with journals, cassettes and `luma test`, through `dist/luma`:
 * a journaled run killed after its ask appended, resumed with the same run id, answers
 * the ask from its journal and does not append the exchange a second time; a run recorded to
 * a cassette replays offline with the same output; a `luma test` drives a thread with a mock.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { ensureBinary } from "../support/luma-binary";
import { luma, project } from "./thread-harness";

const fake = await startFakeProvider();
afterAll(() => fake.stop());
const env = () => ({ ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai") });

const program = `${modelDecl("openai")}
schema Done { ok: bool }
tool finish(n: int) -> Done {}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread("journaled")
print(A.say(t, "hi"))
tool finish({ n: len(t) })
print(len(t))
`;
// With HANG_AT set, the handler says so in that file and never returns: the test kills the process there.
const TOOLS = `import { writeFileSync } from "node:fs";
export const lumaTools = { finish: async () => { if (process.env.HANG_AT) { writeFileSync(process.env.HANG_AT, "here"); await new Promise(() => {}); } return { ok: true }; } };\n`;

describe("issue #26 §1: a resumed journaled run does not append its exchange twice", () => {
  test("killed after the ask, resumed with --run-id: the ask is answered from the journal and the thread holds one exchange", async () => {
    const dir = project(program, { threads: { backend: "sqlite" }, journal: { backend: "sqlite" } });
    writeFileSync(join(dir, "tools.ts"), TOOLS);
    const args = [join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--run-id", "r1"];
    fake.script([{ json: { value: "Hello." } }]);
    const marker = join(dir, "hanging");
    const crashed = Bun.spawn([ensureBinary(), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", ...env(), HANG_AT: marker },
      stdout: "pipe",
      stderr: "pipe",
    });
    while (!existsSync(marker)) await Bun.sleep(10);
    crashed.kill("SIGKILL");
    await crashed.exited;
    expect(fake.requests.length).toBe(1);
    fake.script([]);
    const resumed = await luma(dir, args, env());
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("Hello.\n2\n");
    expect(fake.requests.length).toBe(0);
  });
});

describe("issue #26 §1: cassettes and luma test", () => {
  test("recorded with --record, replayed offline: the same output, history included", async () => {
    const src = `${modelDecl("anthropic")}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { ask text -> string in t }
}
t = thread()
print(A.say(t, "one"))
print(A.say(t, "two"))
print(len(t))
`;
    const dir = project(src);
    fake.script([{ json: { value: "First." } }, { json: { value: "Second." } }]);
    const live = await luma(dir, [join(dir, "main.luma"), "--record", "c.jsonl"], { ...KEYS.anthropic, LUMA_BASE_URL_M: fake.baseUrl("anthropic") });
    expect(live.stdout).toBe("First.\nSecond.\n4\n");
    const replay = await luma(dir, [join(dir, "main.luma"), "--replay", "c.jsonl"], {});
    expect(replay.stderr).toBe("");
    expect(replay.stdout).toBe(live.stdout);
  });

  test("luma test: a mocked model answers asks on a thread, and the test reads its messages", async () => {
    const src = `${modelDecl("openai")}
agent A {
  model: M
  fn say(t: Thread, text: string) -> string { ask text -> string in t }
}
`;
    const dir = project(src);
    writeFileSync(
      join(dir, "main.test.luma"),
      `test "a thread remembers" {
  mock M [{ answer: "Hi." }, { answer: "Again." }]
  t = thread()
  assert A.say(t, "hello") == "Hi."
  assert A.say(t, "more") == "Again."
  assert len(t) == 4
  assert t.messages[2].text == "more"
}
`,
    );
    const r = await luma(dir, ["test", dir], {});
    expect(r.stdout).toContain("1 passed");
    expect(r.exitCode).toBe(0);
  });
});

/**
 * Issue #26 in a built executable (`luma build`): threads — `thread()` in memory and
 * `thread(id)` on the sqlite `"threads"` store, kept across runs of the built file — `stream
 * ask … in t` writing each answer as it arrives, and the model options on the wire, on every
 * provider family, against the fake provider. One program holds a model and an agent per
 * family, so one (slow, ~110 MB) build covers them all. The built file runs alone, with no
 * `bun` on PATH, from another directory: its thread store is created in the working directory.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KEYS } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { isolate, lumaBuild, removeAll, tempDir, type Isolated } from "./built-agent-support";

const FAMILIES = [
  { decl: "OA", kind: "openai", model: `provider: "openai"  name: "gpt-5.4-mini"  top_p: 0.9  seed: 7  stop: ["END"]` },
  { decl: "OR", kind: "openai-responses", model: `provider: "openai"  name: "gpt-5.4-mini"  api: "responses"  top_p: 0.5  reasoning_effort: "high"` },
  { decl: "AZ", kind: "azure", model: `provider: "azure"  name: "gpt-4o"  deployment: "prod-4o"  seed: 11` },
  { decl: "AN", kind: "anthropic", model: `provider: "anthropic"  name: "claude-sonnet-4-5"  stop: ["END"]` },
  { decl: "GE", kind: "gemini", model: `provider: "gemini"  name: "gemini-3-flash"  top_p: 0.8  seed: 3` },
] as const;

const PROGRAM = `${FAMILIES.map((f) => `model ${f.decl} { ${f.model} }`).join("\n")}
${FAMILIES.map((f) => `agent Agent${f.decl} {
  model: ${f.decl}
  history_limit: 12
  fn say(t: Thread, text: string) -> string { stream ask text -> string in t }
}`).join("\n")}
stored = thread(args[0])
${FAMILIES.map((f) => `r${f.decl} = Agent${f.decl}.say(stored, "${f.decl}: {args[1]}")`).join("\n")}
print(len(stored), stored)
scratch = thread()
AgentOA.say(scratch, "in memory")
print(len(scratch))
`;

const fake = await startFakeProvider();
let out: string;
let agent: Isolated;
let state: string;
let build: ReturnType<typeof lumaBuild>;

beforeAll(() => {
  out = tempDir("luma-build-conv-");
  const src = tempDir("luma-build-conv-src-");
  writeFileSync(join(src, "main.luma"), PROGRAM);
  writeFileSync(join(src, "luma.config.json"), JSON.stringify({ threads: { backend: "sqlite" } }));
  build = lumaBuild([join(src, "main.luma"), "--config", join(src, "luma.config.json"), "-o", join(out, "conv")]);
  if (build.exitCode === 0) agent = isolate(join(out, "conv"));
  state = tempDir("luma-build-conv-state-");
}, 180_000);

afterAll(() => {
  fake.stop();
  removeAll(out, state, ...(agent ? [agent.dir, agent.path] : []));
});

const env = (): Record<string, string> =>
  Object.assign({}, ...FAMILIES.map((f) => ({ ...KEYS[f.kind], [`LUMA_BASE_URL_${f.decl}`]: fake.baseUrl(f.kind) })));

/** Runs the built file alone (`Bun.spawnSync` would block the fake provider, which runs in this process). */
async function runBuilt(args: string[]) {
  const p = Bun.spawn([agent.bin, ...args], {
    cwd: state,
    env: { PATH: agent.path, HOME: state, NO_COLOR: "1", LUMA_NO_CACHE: "1", ...env() },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, exitCode };
}

const answers = (run: number) => [...FAMILIES.map((f) => ({ text: `${f.decl} answer ${run}.` })), { text: "Scratch." }];

describe("issue #26 in a built executable: threads, stream ask, model options on every family", () => {
  test("the program builds", () => {
    expect(build.stderr).toBe("");
    expect(build.exitCode).toBe(0);
  });

  test("first run: each family streams its answer to stdout, the stored thread holds every exchange, the memory thread its own", async () => {
    fake.script(answers(1));
    const r = await runBuilt(["customer-1", "hello"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const streamed = FAMILIES.map((f) => `${f.decl} answer 1.\n`).join("");
    expect(r.stdout).toBe(`${streamed}10 {"thread":"customer-1"}\nScratch.\n2\n`);
    expect(existsSync(join(state, ".luma-threads.sqlite"))).toBe(true);
    expect(existsSync(join(agent.dir, ".luma-threads.sqlite"))).toBe(false);

    // Streamed on the wire, with each model's options as its API names them.
    const [oa, or, az, an, ge] = fake.requests;
    expect(oa.body).toMatchObject({ stream: true, top_p: 0.9, seed: 7, stop: ["END"] });
    expect(or.body).toMatchObject({ stream: true, top_p: 0.5, reasoning: { effort: "high" } });
    expect(az.body).toMatchObject({ stream: true, seed: 11 });
    expect(an.body).toMatchObject({ stream: true, stop_sequences: ["END"] });
    expect(ge.path).toEndWith(":streamGenerateContent");
    expect(ge.body.generationConfig).toMatchObject({ topP: 0.8, seed: 3 });
    // The thread is shared across families: the last request carries the four exchanges before it.
    expect(JSON.stringify(ge.body.contents)).toContain("AN answer 1.");
    expect(JSON.stringify(ge.body.contents)).toContain("OA: hello");
  });

  test("second run on the same id: the sqlite thread survived the process, and history_limit cuts what is sent", async () => {
    fake.script(answers(2));
    const r = await runBuilt(["customer-1", "again"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toStartWith("OA answer 2.\n");
    expect(r.stdout).toContain('20 {"thread":"customer-1"}\n');
    const first = fake.requests[0].body.messages.map((m: any) => m.content);
    expect(first.slice(0, 2)).toEqual(["OA: hello", "OA answer 1."]);
    expect(first.at(-1)).toBe("OA: again");
    // By the Gemini request the thread holds 18 messages: the last 12 of them (from run 1's Anthropic prompt) go out, then the new prompt.
    const contents = fake.requests[4].body.contents;
    expect(contents.length).toBe(13);
    expect(JSON.stringify(contents[0])).toContain("AN: hello");
    expect(JSON.stringify(contents.at(-1))).toContain("GE: again");
  });
});

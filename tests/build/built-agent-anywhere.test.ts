/**
 * Issue #24 §1, through `dist/luma`: the `luma init` app, built with `luma build` and started
 * from another directory, runs — its config's `replay` cassette is part of the program and is
 * embedded (it failed with `cannot read cassette cassettes/main.jsonl` and no hint). And every
 * "cannot read cassette" names what named the file and where it was looked for.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { isolate, removeAll, runIsolated, tempDir } from "./built-agent-support";

const base = tempDir("luma-built-anywhere-");
afterAll(() => removeAll(base));
const offline = { OPENAI_API_KEY: undefined };
const ANSWER = "Lisbon: wear light clothes and sunglasses; umbrella: false\n";

describe("a built scaffold runs from any directory", () => {
  const app = join(base, "app");

  test("the luma init app, built and copied alone into an empty directory, replays its embedded cassette", () => {
    expect(runLuma(["init", "app"], { cwd: base }).exitCode).toBe(0);
    const built = runLuma(["build", "main.luma", "-o", "dist/app"], { cwd: app, env: offline });
    expect(built.stderr).toBe("");
    expect(built.exitCode).toBe(0);
    const agent = isolate(join(app, "dist/app"));
    try {
      expect(runIsolated(agent, [])).toEqual({ exitCode: 0, stdout: ANSWER, stderr: "" });
      const manifest = JSON.parse(runIsolated(agent, ["--luma-manifest"]).stdout);
      expect(manifest.replay).toEqual({ path: "cassettes/main.jsonl", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    } finally {
      removeAll(agent.dir, agent.path);
    }
  }, 120_000);

  test("--replay at run time still reads its file, against the working directory, and says where it looked", () => {
    const r = runLuma(["main.luma", "--replay", "no-such.jsonl"], { cwd: app, env: offline });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith(`Error: cannot read cassette no-such.jsonl: no such file (named by --replay; looked at ${join(app, "no-such.jsonl")})\n`);
  }, 30_000);

  test("a config's missing cassette stops the build, naming the key and where it looked (exit 2)", () => {
    renameSync(join(app, "cassettes"), join(app, "recorded"));
    try {
      const built = runLuma(["build", "main.luma", "-o", "dist/app2"], { cwd: app, env: offline });
      expect(built.exitCode).toBe(2);
      const message = `Error: cannot read cassette cassettes/main.jsonl: no such file (named by "replay" in luma.config.json; looked at ${join(app, "cassettes/main.jsonl")})\n`;
      expect(built.stderr).toStartWith(message);
      // `luma main.luma` and `luma test` say the same of their own cassettes.
      expect(runLuma(["main.luma"], { cwd: app, env: offline }).stderr).toStartWith(message);
      const tested = runLuma(["test"], { cwd: app, env: offline });
      expect(tested.stdout + tested.stderr).toContain(
        `cannot read cassette cassettes/main.jsonl: no such file (named by replay "cassettes/main.jsonl" in main.test.luma; looked at ${join(app, "cassettes/main.jsonl")})`,
      );
    } finally {
      renameSync(join(app, "recorded"), join(app, "cassettes"));
    }
  }, 120_000);

  test("a --config given to the built agent at run time names its own cassette, against its own directory", () => {
    const agent = isolate(join(app, "dist/app"));
    try {
      writeFileSync(join(agent.dir, "other.json"), JSON.stringify({ tool_modules: [{ path: "./tools.ts", version: "1.0.0" }], replay: "elsewhere.jsonl" }));
      const r = runIsolated(agent, ["--config", "other.json"]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toStartWith(`Error: cannot read cassette elsewhere.jsonl: no such file (named by "replay" in other.json; looked at ${join(agent.dir, "elsewhere.jsonl")})\n`);
    } finally {
      removeAll(agent.dir, agent.path);
    }
  }, 60_000);
});

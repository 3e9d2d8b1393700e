/**
 * Issue #30: a `luma build` executable keeps `"sandbox": "process"`. The executable is the
 * child's entry too; each module's bundled text goes to its child over the framed pipe (no
 * file of it is written anywhere), and the child sees nothing of the host but the runtime.
 * Each confinement row has a strict control: the same built module does reach its target.
 */
import { describe, expect } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { GAP, it, projectDir, RUN_ENV } from "./process-project";

const APP = `schema Out { r: string }
tool probe(x: string) -> Out { timeout: 5000 }
try {
  print(tool probe({ x: "a" }).r)
} catch e {
  print(e.code, e.retryable, e.message)
}
print(tool probe({ x: "b" }).r)
`;

/** Builds `app.luma` with `tools.cjs` (`handler` as its probe) under `policy`; the agent runs from another, empty directory. */
function buildAgent(handler: string, policy: object, file = "tools.cjs", source?: string): { agent: string; runDir: string } {
  const dir = projectDir("luma-process-build-", {
    [file]: source ?? `${GAP}module.exports = { probe: ${handler} };\n`,
    "app.luma": APP,
    "luma.config.json": JSON.stringify({ tool_modules: [`./${file}`], tool_module_policy: policy }),
  });
  const agent = join(dir, "agent");
  const built = runLuma(["build", "app.luma", "-o", agent], { cwd: dir });
  expect(built.stderr).toBe("");
  expect(built.exitCode).toBe(0);
  return { agent, runDir: mkdtempSync(join(tmpdir(), "luma-process-agent-run-")) };
}

const runAgent = (agent: string, cwd: string, env: Record<string, string> = {}, args: string[] = []) => {
  const r = Bun.spawnSync([agent, ...args], { cwd, env: { ...RUN_ENV, ...env }, stdout: "pipe", stderr: "pipe" });
  return { exitCode: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
};

const tryIt = (body: string) => `async (i) => { try { return { r: String(await (async () => { ${body} })()) }; } catch (e) { return { r: "denied " + (e.code ?? e.message) }; } }`;
const PROCESS = { sandbox: "process" };

describe("issue #30: luma build keeps the process tier", () => {
  it("the tool works: results and typed errors cross the channel, in a child of its own pid namespace", () => {
    const { agent, runDir } = buildAgent(`(i) => { if (i.x === "a") { const e = new Error("nope"); e.code = "E_MINE"; e.retryable = false; throw e; } return { r: "ok " + i.x + " pid<10 " + (P(i).pid < 10) }; }`, PROCESS);
    const r = runAgent(agent, runDir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("E_MINE false nope\nok b pid<10 true\n");
    expect(r.exitCode).toBe(0);
    expect(runAgent(agent, runDir, {}, ["--luma-manifest"]).stdout).toContain('"tool_module_policy": "process"');
  });

  it("confinement holds: a host file next to the agent and /etc/passwd are out of view (strict control reads both)", () => {
    const body = tryIt(`const b = B(i); return i.x === "a" ? await b.file(P(i).cwd() + "/secret.txt").text() : (await b.file("/etc/passwd").text()).slice(0, 5);`);
    const strict = buildAgent(body, { sandbox: "strict" });
    writeFileSync(join(strict.runDir, "secret.txt"), "s3cret");
    expect(runAgent(strict.agent, strict.runDir).stdout).toBe("s3cret\nroot:\n");
    const confined = buildAgent(body, PROCESS);
    writeFileSync(join(confined.runDir, "secret.txt"), "s3cret");
    expect(runAgent(confined.agent, confined.runDir).stdout).toBe("denied ENOENT\ndenied ENOENT\n");
  });

  it("the host's environment is out of reach: only allow_env's names (strict control sees the secret)", () => {
    const body = `(i) => ({ r: Object.keys(P(i).env).filter((k) => k !== "LUMA_TOOL_HOST").sort().join(",") })`;
    const env = { ALLOWED: "ok", SECRET_TOKEN: "s3cret" };
    const strict = buildAgent(body, { sandbox: "strict" });
    expect(runAgent(strict.agent, strict.runDir, env).stdout).toContain("SECRET_TOKEN");
    const confined = buildAgent(body, { sandbox: "process", allow_env: ["ALLOWED"] });
    expect(runAgent(confined.agent, confined.runDir, env).stdout).toBe("ALLOWED\nALLOWED\n");
  });

  it("nothing of the module is written to the host: the agent's temp directory stays as it was", () => {
    const tmp = mkdtempSync(join(tmpdir(), "luma-process-tmp-"));
    const { agent, runDir } = buildAgent(`(i) => ({ r: "ran " + i.x })`, PROCESS);
    const r = runAgent(agent, runDir, { TMPDIR: tmp });
    expect(r.stdout).toBe("ran a\nran b\n");
    expect(readdirSync(tmp)).toEqual([]);
    expect(readdirSync(runDir)).toEqual([]);
  });

  it("an ES module and a TypeScript module run in their child too (Bun.spawnSync, which strict lets ESM call, finds no program)", () => {
    const esm = buildAgent("", PROCESS, "tools.mjs", `export const probe = (i) => { let s; try { s = Bun.spawnSync(["true"]).exitCode; } catch { s = "no program"; } return { r: "esm " + i.x + " " + s }; };\n`);
    expect(runAgent(esm.agent, esm.runDir).stdout).toBe("esm a no program\nesm b no program\n");
    const ts = buildAgent("", PROCESS, "tools.ts", `export const probe = (i: { x: string }): { r: string } => ({ r: "ts " + i.x });\n`);
    expect(runAgent(ts.agent, ts.runDir).stdout).toBe("ts a\nts b\n");
  });

  it("a host without the mechanism: the agent stops at start-up naming what is missing (E0510), never a weaker tier", () => {
    const { agent, runDir } = buildAgent(`(i) => ({ r: "ran here" })`, PROCESS);
    const r = runAgent(agent, runDir, { PATH: "/nonexistent" });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("bubblewrap ('bwrap') is not installed");
    expect(r.stderr).toContain("E0510");
    expect(existsSync(join(runDir, "secret.txt"))).toBe(false);
  });
});

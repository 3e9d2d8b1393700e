/**
 * Issue #30 through the real binary: `"sandbox": "process"` runs each tool module in its own
 * bubblewrap-confined child. The modules here use the pinned strict gap (the handler's own
 * input leads to the host Function, hence the real `Bun` and `process` — evasions.test.ts) to
 * reach past the lint; what they reach is the child's sandbox, not the host. Each attack has
 * a control under "strict" where the same module does reach its target, so a row would fail
 * if the process tier were missing. Skipped, with the reason, where bubblewrap cannot run.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";
import { GAP, it } from "./process-project";

const APP = `schema Out { r: string }
tool probe(x: string) -> Out { timeout: 3000 }
try {
  print(tool probe({ x: "a" }).r)
} catch e {
  print(e.code, e.retryable, e.message)
}
print(tool probe({ x: "b" }).r)
`;

function project(handler: string, policy: object, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-process-"));
  writeFileSync(join(dir, "tools.cjs"), `${GAP}module.exports = { probe: ${handler} };\n`);
  writeFileSync(join(dir, "app.luma"), APP);
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: policy }));
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
  return dir;
}

const PROCESS = { sandbox: "process" };
const STRICT = { sandbox: "strict" };
const run = (dir: string, env: Record<string, string> = {}) => runLuma(["app.luma"], { cwd: dir, env });
const tryIt = (body: string) => `async (i) => { try { return { r: String(await (async () => { ${body} })()) }; } catch (e) { return { r: "denied " + (e.code ?? e.message) }; } }`;

describe("issue #30: the process tier runs the module in a child, with the pipeline unchanged", () => {
  it("results, a typed error and the handler's file:line cross the channel", () => {
    const dir = project(`(i) => { if (i.x === "a") { const e = new Error("nope"); e.code = "E_MINE"; e.retryable = false; throw e; } return { r: "ok " + i.x }; }`, PROCESS);
    const r = run(dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('E_MINE false nope\nok b\n');
    expect(r.exitCode).toBe(0);
  });

  it("the child is another process in its own pid namespace", () => {
    const dir = project(`(i) => ({ r: String(P(i).pid < 10) })`, PROCESS);
    expect(run(dir).stdout).toBe("true\ntrue\n");
  });

  it("a handler throwing a plain Error is TOOL_HANDLER_ERROR naming its file:line", () => {
    const dir = project(`(i) => { throw new Error("boom " + i.x); }`, PROCESS);
    const r = run(dir);
    expect(r.stdout).toMatch(/^TOOL_HANDLER_ERROR false boom a \(at .*tools\.cjs:\d+:\d+\)\n/);
  });
});

describe("issue #30: needs, ctx, credentials, signal and a warm child", () => {
  const write = (dir: string, files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };

  it("needs and the handler context reach the handler in its child; a credential only with its own tool's calls", () => {
    const dir = write(mkdtempSync(join(tmpdir(), "luma-process-needs-")), {
      "tools.cjs": `${GAP}module.exports = {
        uses: (i, signal, needs, ctx) => ({ r: [needs.db.user, ctx.stepId !== undefined, ctx.idempotencyKey.includes("/"), signal instanceof AbortSignal, P(i).env.API_TOKEN ?? "none"].join(" ") }),
        other: (i) => ({ r: P(i).env.API_TOKEN ?? "none" }),
      };\n`,
      "app.luma": `schema Out { r: string }\nschema Database { user: string }\ntool other(x: string) -> Out {}\ntool uses(x: string) -> Out {\n  credential: "API_TOKEN"\n  needs db: Database\n}\nprint(tool other({ x: "1" }).r)\nprint(tool uses({ x: "2" }).r)\n`,
      "luma.config.json": JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: PROCESS, tool_contexts: { db: { user: { env: "DB_USER" } } } }),
    });
    const r = run(dir, { DB_USER: "ada", API_TOKEN: "tok-123" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("none\nada true true true tok-123\n");
  });

  it("a handler honouring its signal: TOOL_TIMEOUT, and the same child (its module state) answers the next call", () => {
    const dir = project(`(() => { let calls = 0; return (i, signal) => { calls++; if (i.x === "a") return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))); return { r: "call " + calls }; }; })()`, PROCESS);
    writeFileSync(join(dir, "app.luma"), APP.replace("timeout: 3000", "timeout: 200"));
    const r = run(dir);
    expect(r.stdout).toMatch(/^TOOL_TIMEOUT true /);
    expect(r.stdout).toEndWith("call 2\n");
  });
});

describe("issue #30: attacks fail inside the sandbox (each with a strict control that succeeds)", () => {
  const readPasswd = tryIt(`return (await B(i).file("/etc/passwd").text()).includes("root:") ? "read" : "empty";`);
  it("reading /etc/passwd", () => {
    expect(run(project(readPasswd, STRICT)).stdout).toStartWith("read\n");
    expect(run(project(readPasswd, PROCESS)).stdout).toStartWith("denied ENOENT\n");
  });

  const readSibling = tryIt(`return await B(i).file(require("path").join(__dirname, "secret.txt")).text();`);
  it("reading another project file (not one the module loads)", () => {
    expect(run(project(readSibling, { sandbox: "strict", allow_builtins: ["path"] }, { "secret.txt": "s3cret" })).stdout).toStartWith("s3cret\n");
    expect(run(project(readSibling, { sandbox: "process", allow_builtins: ["path"] }, { "secret.txt": "s3cret" })).stdout).toStartWith("denied ENOENT\n");
  });

  it("allow_paths shows a path read-only; writing into it fails", () => {
    const shared = mkdtempSync(join(tmpdir(), "luma-shared-"));
    writeFileSync(join(shared, "data.txt"), "shared data");
    const body = tryIt(`const b = B(i); if (i.x === "a") return await b.file(${JSON.stringify(join(shared, "data.txt"))}).text(); await b.write(${JSON.stringify(join(shared, "w.txt"))}, "x"); return "wrote";`);
    const r = run(project(body, { sandbox: "process", allow_paths: [shared] }));
    expect(r.stdout).toMatch(/^shared data\ndenied (EROFS|EACCES|EPERM)/);
    expect(existsSync(join(shared, "w.txt"))).toBe(false);
  });

  it("writes never reach the host: /tmp is private, the rest read-only", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-target-"));
    const body = tryIt(`const b = B(i); await b.write(i.x === "a" ? ${JSON.stringify(join(dir, "pwned"))} : "/usr/luma-pwned", "x"); return "wrote";`);
    const r = run(project(body, PROCESS));
    // The host's tmpdir is under /tmp: inside, that is the child's private /tmp.
    expect(r.stdout).toMatch(/^wrote\ndenied /);
    expect(existsSync(join(dir, "pwned"))).toBe(false);
    expect(existsSync("/usr/luma-pwned")).toBe(false);
  });

  it("the environment: only allow_env's names", () => {
    const body = `(i) => ({ r: Object.keys(P(i).env).filter((k) => k !== "LUMA_TOOL_HOST").sort().join(",") })`;
    const env = { ALLOWED: "ok", SECRET_TOKEN: "s3cret" };
    expect(run(project(body, STRICT), env).stdout).toContain("SECRET_TOKEN");
    expect(run(project(body, { sandbox: "process", allow_env: ["ALLOWED"] }), env).stdout).toBe("ALLOWED\nALLOWED\n");
    expect(run(project(body, PROCESS), env).stdout).toBe("\n\n");
  });

  test("allow_env as a list holds under strict too: the VM context's process.env has only those names", () => {
    const dir = project(`() => ({ r: Object.keys(process.env).sort().join(",") })`, { sandbox: "strict", allow_env: ["ALLOWED"] });
    expect(run(dir, { ALLOWED: "ok", SECRET_TOKEN: "s3cret" }).stdout).toBe("ALLOWED\nALLOWED\n");
  });

  it("an allowed variable's value never appears on a command line other users can read", async () => {
    const dir = project(`async (i) => { if (i.x === "a") await new Promise((r) => setTimeout(r, 1500)); return { r: P(i).env.API_SECRET }; }`, { sandbox: "process", allow_env: ["API_SECRET"] });
    const p = Bun.spawn([ensureBinary(), "app.luma"], { cwd: dir, env: { PATH: process.env.PATH, LUMA_NO_CACHE: "1", API_SECRET: "s3cret-value" }, stdout: "pipe", stderr: "pipe" });
    let lines: string[] = [];
    for (let i = 0; i < 100 && lines.length === 0; i++) {
      await Bun.sleep(20);
      lines = Bun.spawnSync(["pgrep", "-a", "-P", String(p.pid)]).stdout.toString().trim().split("\n").filter(Boolean);
    }
    await p.exited;
    expect(lines.join("\n")).toContain("bwrap");
    expect(lines.join("\n")).not.toContain("s3cret-value");
    expect(await new Response(p.stdout).text()).toBe("s3cret-value\ns3cret-value\n");
  });

  const spawn = tryIt(`return B(i).spawnSync(["sh", "-c", "cat /etc/passwd | head -1"]).stdout.toString().trim() || "nothing";`);
  it("spawning: no programs without allow_spawn; with it, still inside the sandbox", () => {
    expect(run(project(spawn, STRICT)).stdout).toStartWith("root:");
    expect(run(project(spawn, PROCESS)).stdout).toMatch(/^denied /);
    expect(run(project(spawn, { sandbox: "process", allow_spawn: true })).stdout).toStartWith("nothing\n");
  });

  it("the network: none without allow_network (a server on the host's loopback is out of reach)", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("host answered") });
    try {
      // Spelled so the lint does not see it (the gap again): what stops it is the network namespace.
      const body = tryIt(`const b = B(i); return await (await b["fe" + "tch"]("ht" + "tp://127.0.0.1:${server.port}/")).text();`);
      const runAsync = async (dir: string) => {
        const p = Bun.spawn([ensureBinary(), "app.luma"], { cwd: dir, env: { PATH: process.env.PATH, LUMA_NO_CACHE: "1", NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
        await p.exited;
        return await new Response(p.stdout).text();
      };
      expect(await runAsync(project(body, STRICT))).toStartWith("host answered\n");
      expect(await runAsync(project(body, PROCESS))).toMatch(/^denied /);
    } finally {
      server.stop(true);
    }
  });

  it("other processes: /proc shows only the sandbox's own (luma and the host's processes cannot be found, signalled or traced)", () => {
    const body = `(i) => ({ r: require("fs").readdirSync("/proc").filter((e) => /^\\d+$/.test(e)).every((pid) => Number(pid) < 10) + "" })`;
    const strict = run(project(body, { sandbox: "strict", allow_builtins: ["fs"] }));
    expect(strict.stdout).toStartWith("false\n");
    expect(run(project(body, { sandbox: "process", allow_builtins: ["fs"] })).stdout).toBe("true\ntrue\n");
  });

  it("killing every process it can see kills only its own sandbox: the call fails retryably and the next one gets a fresh child", () => {
    const body = `(i) => { if (i.x === "a") P(i).kill(-1, "SIGKILL"); return { r: "alive " + i.x }; }`;
    const r = run(project(body, PROCESS));
    // kill(-1) is refused by the exit guard as in-process; the real kill is tried through the host Function too.
    expect(r.stdout).toEndWith("alive b\n");
    expect(r.exitCode).toBe(0);
  });
});

describe("issue #30: a child that misbehaves fails the call in flight, typed, and is replaced", () => {
  it("garbage on the channel: TOOL_SANDBOX_FAILED, retryable; the next call runs in a new child", () => {
    const body = `(i) => { if (i.x === "a") { require("fs").writeSync(1, "garbage!"); return new Promise(() => {}); } return { r: "fresh " + i.x }; }`;
    const r = run(project(body, { sandbox: "process", allow_builtins: ["fs"] }));
    expect(r.stdout).toMatch(/^TOOL_SANDBOX_FAILED true Tool module '\.\/tools\.cjs' broke the channel: bytes outside the protocol/);
    expect(r.stdout).toEndWith("fresh b\n");
  });

  it("the replacement is started at once, not at the next call: that call finds it warm", () => {
    const dir = project(`(i) => { if (i.x === "a") { require("fs").writeSync(1, "garbage!"); return new Promise(() => {}); } return { r: "started " + (P(i).uptime() > 1 ? "before" : "at") + " the call" }; }`, { sandbox: "process", allow_builtins: ["fs"] });
    writeFileSync(join(dir, "app.luma"), APP.replace('print(tool probe({ x: "b" }).r)', 'sleep(1500)\nprint(tool probe({ x: "b" }).r)'));
    const r = run(dir);
    expect(r.stdout).toMatch(/^TOOL_SANDBOX_FAILED true /);
    expect(r.stdout).toEndWith("started before the call\n");
  });

  it("a handler ignoring its AbortSignal: TOOL_TIMEOUT, then its child is killed after kill_grace_ms and the next call restarts it", () => {
    const app = APP.replace("timeout: 3000", "timeout: 1500");
    const dir = project(`(i) => { if (i.x === "a") { const end = Date.now() + 20000; while (Date.now() < end) {} } return { r: "next " + i.x }; }`, { sandbox: "process", kill_grace_ms: 100 });
    writeFileSync(join(dir, "app.luma"), app);
    const r = run(dir);
    expect(r.stdout).toMatch(/^TOOL_TIMEOUT true /);
    expect(r.stdout).toEndWith("next b\n");
  });

  it("Ctrl-C (SIGINT to luma's whole process group, as a terminal sends it): the handler sees its AbortSignal, the sandbox is not killed", async () => {
    const dir = project(`(i, signal) => new Promise((resolve) => signal.addEventListener("abort", () => { console.error("handler saw the abort"); resolve({ r: "stopped" }); }))`, PROCESS);
    writeFileSync(join(dir, "app.luma"), APP.replace("timeout: 3000", "timeout: 20000"));
    // detached: luma leads a process group of its own, which the test signals as a terminal would.
    const p = Bun.spawn([ensureBinary(), "app.luma"], { cwd: dir, env: { PATH: process.env.PATH, LUMA_NO_CACHE: "1", NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe", detached: true });
    await Bun.sleep(1500); // loaded, and the first call in flight
    process.kill(-p.pid, "SIGINT");
    expect(await p.exited).toBe(130);
    const err = await new Response(p.stderr).text();
    expect(err).toContain("handler saw the abort");
    expect(err + (await new Response(p.stdout).text())).not.toContain("TOOL_SANDBOX_FAILED");
  });

  it("kill -9 of the child mid-call: TOOL_SANDBOX_FAILED naming how it died, and a restart", async () => {
    const dir = project(`async (i) => { if (i.x === "a") await new Promise((r) => setTimeout(r, 2500)); return { r: "back " + i.x }; }`, PROCESS);
    const bin = ensureBinary();
    const p = Bun.spawn([bin, "app.luma"], { cwd: dir, env: { PATH: process.env.PATH, LUMA_NO_CACHE: "1", NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
    // The child's command line is the binary alone (luma's own has the program's file). Only
    // this run's descendants count: another test file's run (bun test --parallel) has such a child too.
    const parentOf = (pid: string) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]!;
      } catch {
        return "0"; // gone meanwhile
      }
    };
    const ours = (pid: string) => {
      for (let at = parentOf(pid); at !== "0" && at !== "1"; at = parentOf(at)) if (at === String(p.pid)) return true;
      return false;
    };
    const children = () => Bun.spawnSync(["pgrep", "-xf", bin]).stdout.toString().trim().split("\n").filter(Boolean).filter(ours);
    const before = new Set(children());
    let child: string | undefined;
    for (let i = 0; i < 200 && !child; i++) {
      await Bun.sleep(20);
      child = children().find((pid) => !before.has(pid));
    }
    expect(child).toBeDefined();
    await Bun.sleep(600); // loaded, and the first call in flight (it waits 2.5 s)
    Bun.spawnSync(["kill", "-9", child!]);
    await p.exited;
    const out = await new Response(p.stdout).text();
    expect(out).toMatch(/^TOOL_SANDBOX_FAILED true Tool module '\.\/tools\.cjs' was killed \(SIGKILL/);
    expect(out).toEndWith("back b\n");
  });
});

describe("issue #30: every kind of module, and strict's load checks, under process", () => {
  const SCAN_APP = `schema ScanResult { count: int }\ntool scan() -> ScanResult {}\ntry {\n  print(tool scan({}).count > 0)\n} catch e {\n  print(e.code)\n}\n`;
  const withModule = (file: string, text: string, policy: object) => {
    const dir = mkdtempSync(join(tmpdir(), "luma-process-kind-"));
    writeFileSync(join(dir, file), text);
    writeFileSync(join(dir, "app.luma"), SCAN_APP);
    writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: [`./${file}`], tool_module_policy: policy }));
    return dir;
  };

  it("the seed's Bun.spawnSync module (examples/strict/tools/scan.ts) spawns under strict, and reaches no program under process", async () => {
    const seed = await Bun.file(join(import.meta.dir, "../../examples/strict/tools/scan.ts")).text();
    expect(run(withModule("scan.ts", seed, STRICT)).stdout).toBe("true\n");
    expect(run(withModule("scan.ts", seed, PROCESS)).stdout).toBe("TOOL_HANDLER_ERROR\n");
  });

  it("the pinned gaps reach nothing of the host: Bun.spawn, and an ES module's real Bun (allow_env)", () => {
    const spawn = `export const scan = async () => ({ count: await Bun.spawn(["true"]).exited === 0 ? 1 : 0 });\n`;
    expect(run(withModule("s.ts", spawn, STRICT)).stdout).toBe("true\n");
    expect(run(withModule("s.ts", spawn, PROCESS)).stdout).toBe("TOOL_HANDLER_ERROR\n");
    const esm = `export const scan = async () => ({ count: (await globalThis["B" + "un"].file("/etc/passwd").text()).length });\n`;
    expect(run(withModule("e.mjs", esm, { sandbox: "strict", allow_env: true })).stdout).toBe("true\n");
    expect(run(withModule("e.mjs", esm, { sandbox: "process", allow_env: true })).stdout).toBe("TOOL_HANDLER_ERROR\n");
  });

  it("TypeScript, ES and CommonJS modules load and answer in their child", () => {
    const ok = "({ count: 1 })";
    expect(run(withModule("t.ts", `export const scan = (): { count: number } => ${ok};\n`, PROCESS)).stdout).toBe("true\n");
    expect(run(withModule("e.mjs", `export const scan = () => ${ok};\n`, PROCESS)).stdout).toBe("true\n");
    expect(run(withModule("c.cjs", `module.exports = { scan: () => ${ok} };\n`, PROCESS)).stdout).toBe("true\n");
  });

  it("a datasource bridge (examples/052_module_bridge.luma) answers from its child exactly as under strict", async () => {
    const outputs = [];
    for (const sandbox of ["strict", "process"]) {
      const dir = mkdtempSync(join(tmpdir(), "luma-process-bridge-"));
      writeFileSync(join(dir, "app.luma"), await Bun.file(join(import.meta.dir, "../../examples/052_module_bridge.luma")).text());
      writeFileSync(join(dir, "datasource-tools.ts"), await Bun.file(join(import.meta.dir, "../../examples/tools/datasource-tools.ts")).text());
      writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./datasource-tools.ts"], tool_module_policy: { sandbox, allow_builtins: ["bun:sqlite"] } }));
      outputs.push(run(dir));
    }
    expect(outputs[0]!.exitCode).toBe(0);
    expect(outputs[0]!.stdout).toContain("restocked C-300: now 40");
    expect(outputs[1]).toEqual(outputs[0]!);
  });

  it("packages (a scoped one too) are shown whole and read-only; the project around them is not", () => {
    const dir = withModule("c.cjs", `const pad = require("padder");\nmodule.exports = { scan: () => ({ count: pad("x").length }) };\n`, PROCESS);
    const files: Record<string, string> = {
      "node_modules/padder/package.json": JSON.stringify({ name: "padder", version: "1.0.0", main: "index.js" }),
      "node_modules/padder/index.js": `const u = require("@acme/util"); module.exports = (s) => u.wrap(s.padStart(4, "*"));`,
      "node_modules/@acme/util/package.json": JSON.stringify({ name: "@acme/util", version: "1.0.0", main: "lib.js" }),
      "node_modules/@acme/util/lib.js": `module.exports = { wrap: (s) => "[" + s + "]" };`,
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    expect(run(dir).stdout).toBe("true\n");
  });

  it("two modules: each in its own child, both answering", () => {
    const dir = withModule("a.cjs", `module.exports = { scan: () => ({ count: 1 }) };\n`, PROCESS);
    writeFileSync(join(dir, "b.cjs"), `module.exports = { other: () => ({ count: 2 }) };\n`);
    writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./a.cjs", "./b.cjs"], tool_module_policy: PROCESS }));
    writeFileSync(join(dir, "app.luma"), `schema ScanResult { count: int }\ntool scan() -> ScanResult {}\ntool other() -> ScanResult {}\nprint(tool scan({}).count + tool other({}).count)\n`);
    expect(run(dir).stdout).toBe("3\n");
  });

  it("strict's refusals and load errors stop start-up as under strict (E0505, E0501)", () => {
    const lint = run(withModule("l.cjs", `module.exports = { scan: () => ({ count: process.env.X.length }) };\n`, PROCESS));
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr).toContain("[allow_env] mentions 'process'");
    expect(lint.stderr).toContain("E0505");
    const broken = run(withModule("b.cjs", `module.exports = { scan: () => ({ count: 1 }) ;\n`, PROCESS));
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toContain("E0501");
    const garbage = run(withModule("g.cjs", `require("fs").writeSync(1, "garbage at load");\nmodule.exports = { scan: () => ({ count: 1 }) };\n`, { sandbox: "process", allow_builtins: ["fs"] }));
    expect(garbage.exitCode).toBe(2);
    expect(garbage.stderr).toContain("could not start in its sandbox");
    expect(garbage.stderr).toContain("E0512");
    const threw = run(withModule("x.cjs", `throw new Error("top level says no");\n`, PROCESS));
    expect(threw.exitCode).toBe(2);
    expect(threw.stderr).toContain("top level says no");
  });
});

describe("issue #30: max_memory_mb is enforced under process", () => {
  it("a child growing past max_memory_mb is killed: TOOL_SANDBOX_FAILED naming the limit, and the next call runs", () => {
    const grow = `async (i) => { if (i.x === "a") { const keep = []; for (let k = 0; k < 60; k++) { keep.push(new Uint8Array(16 * 1024 * 1024).fill(1)); await new Promise((r) => setTimeout(r, 20)); } } return { r: "small " + i.x }; }`;
    const r = run(project(grow, { sandbox: "process", max_memory_mb: 200 }));
    expect(r.stdout).toMatch(/^TOOL_SANDBOX_FAILED true Tool module '\.\/tools\.cjs' was killed: it used \d+ MiB, over max_memory_mb \(200\)/);
    expect(r.stdout).toEndWith("small b\n");
    expect(r.stderr).not.toContain("not enforced");
  });
});

describe("issue #30: no silent fallback", () => {
  test("without bubblewrap on PATH the program stops at start-up naming what is missing (E0510)", () => {
    const dir = project(`(i) => ({ r: "ran" })`, PROCESS);
    const r = runLuma(["app.luma"], { cwd: dir, env: { PATH: "/nonexistent" } });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("bubblewrap ('bwrap') is not installed");
    expect(r.stderr).toContain("E0510");
  });
});

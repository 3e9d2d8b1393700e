/**
 * Issue #13 "everything decided at build time is decided once": the program is checked, the
 * config read, the tool modules judged (integrity, `dependencies`, the strict policy) by the
 * code `luma` runs at start-up — a refusal fails the build with exit 2 and the message `luma`
 * gives — then each module is bundled with its npm packages and the result records what it
 * embeds (`OUT --luma-manifest`). Two full builds only (a ~110 MB file each), shared below.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { isolate, lumaBuild, removeAll, runIsolated, tempDir, type Isolated } from "./built-agent-support";

const ENV_SECRET = "env-secret-read-by-a-tool-module-91d2e4";
const sha256 = (data: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex");

/** A project whose tool modules import an npm package from its own node_modules. */
function writeProject(dir: string, opts: { strict?: boolean; helperImport?: string } = {}): void {
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write("node_modules/padder/package.json", JSON.stringify({ name: "padder", version: "1.0.0", main: "index.js" }));
  write("node_modules/padder/index.js", `module.exports = (s, n) => String(s).padStart(n, "*");\n`);
  write("node_modules/other-pkg/package.json", JSON.stringify({ name: "other-pkg", version: "1.0.0", main: "index.js" }));
  write("node_modules/other-pkg/index.js", `module.exports = 1;\n`);
  write("helper.ts", `${opts.helperImport ?? ""}\nexport const shout = (s: string): string => s.toUpperCase();\n`);
  write(
    "tools.ts",
    `import pad from "padder";\nimport { shout } from "./helper.ts";\n` +
      `// Buffer tells the realm: the host's globals have it, the strict VM context does not.\n` +
      `export function fancy(input: { text: string }) { return { text: \`\${shout(pad(input.text, 8))} \${typeof Buffer}\` }; }\n`,
  );
  write(
    "env-tools.cjs",
    `// Reads the environment when called: at run time, never at build time.\n` +
      `module.exports = { secret_len: () => ({ n: (process.env.LUMA_BUILD_TEST_SECRET || "").length }) };\n`,
  );
  write(
    "prog.luma",
    `schema Text { text: string }\nschema Len { n: int }\n` +
      `tool fancy(text: string) -> Text {}\ntool secret_len() -> Len {}\n` +
      `print(tool fancy({ text: "hi" }).text)\nprint("secret length:", tool secret_len({}).n)\n`,
  );
  const policy = opts.strict ? { sandbox: "strict", allow_env: true } : undefined;
  write(
    "luma.config.json",
    JSON.stringify({ tool_modules: [{ path: "./tools.ts", dependencies: ["padder"] }, "./env-tools.cjs"], tool_module_policy: policy }),
  );
}

const build = (dir: string, out: string, env: Record<string, string> = {}) =>
  runLuma(["build", join(dir, "prog.luma"), "-o", out], { env });

let out: string;
let plainDir: string;
let strictDir: string;
let plain: Isolated;
let strict: Isolated;
let plainBuild: ReturnType<typeof runLuma>;
let strictBuild: ReturnType<typeof runLuma>;

beforeAll(() => {
  out = tempDir("luma-build-judge-");
  plainDir = tempDir("luma-build-project-");
  strictDir = tempDir("luma-build-strict-");
  writeProject(plainDir);
  writeProject(strictDir, { strict: true });
  plainBuild = build(plainDir, join(out, "plain"), { LUMA_BUILD_TEST_SECRET: ENV_SECRET });
  strictBuild = build(strictDir, join(out, "strict"), { LUMA_BUILD_TEST_SECRET: ENV_SECRET });
  plain = isolate(join(out, "plain"));
  strict = isolate(join(out, "strict"));
}, 180_000);

afterAll(() => removeAll(out, plainDir, strictDir, plain.dir, plain.path, strict.dir, strict.path));

describe("luma build: tool modules are bundled with their npm packages and embedded", () => {
  test("the built agent runs with the project (node_modules included) gone", () => {
    expect(plainBuild.exitCode).toBe(0);
    expect(plainBuild.stdout).toContain("2 tool modules");
    removeAll(join(plainDir, "node_modules"));
    const r = runIsolated(plain, []);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("******HI function\nsecret length: 0\n");
    expect(r.exitCode).toBe(0);
  });

  test("environment variables a module reads stay at run time: set then, seen then; never in the file", () => {
    expect(runIsolated(plain, [], { LUMA_BUILD_TEST_SECRET: "abc" }).stdout).toContain("secret length: 3");
    for (const file of [join(out, "plain"), join(out, "strict")]) expect(readFileSync(file).indexOf(ENV_SECRET)).toBe(-1);
  });

  test("under sandbox strict, the bundled TypeScript module (package inlined) runs in the VM context", () => {
    expect(strictBuild.exitCode).toBe(0);
    const r = runIsolated(strict, [], { LUMA_BUILD_TEST_SECRET: "abcd" });
    expect(r.stdout).toBe("******HI undefined\nsecret length: 4\n");
    // …exactly as `luma` runs the project's sources under the same policy.
    expect(runLuma([join(strictDir, "prog.luma")], { env: { LUMA_BUILD_TEST_SECRET: "abcd" } }).stdout).toBe(r.stdout);
    expect(r.exitCode).toBe(0);
  });
});

describe("luma build: OUT records what it contains (--luma-manifest) and says what it is (--help)", () => {
  test("OUT --luma-manifest: Luma version, the program's sha256, each module's path and sha256", () => {
    const r = runIsolated(plain, ["--luma-manifest"]);
    expect(r.exitCode).toBe(0);
    const manifest = JSON.parse(r.stdout);
    expect(manifest.luma_version).toBe(JSON.parse(readFileSync(join(import.meta.dir, "../../package.json"), "utf8")).version);
    expect(manifest.program.sha256).toBe(sha256(readFileSync(join(plainDir, "prog.luma"))));
    expect(manifest.modules.map((m: { path: string }) => m.path)).toEqual(["./tools.ts", "./env-tools.cjs"]);
    expect(manifest.modules[0].sha256).toBe(sha256(readFileSync(join(plainDir, "tools.ts"))));
    expect(manifest.modules[0].packages).toEqual(["padder"]);
    expect(manifest.modules[0].bundled_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.tool_module_policy).toBe("none");
    expect(runIsolated(strict, ["--luma-manifest"]).stdout).toContain('"tool_module_policy": "strict"');
  });

  test("OUT --help prints a short usage naming the program and the run-time options", () => {
    const r = runIsolated(plain, ["--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("plain — the Luma program");
    expect(r.stdout).toContain("prog.luma");
    for (const option of ["--config", "--trace", "--record", "--replay", "--luma-manifest"]) expect(r.stdout).toContain(option);
    expect(r.stdout).not.toContain("--tool-module");
  });

  test("build-time options are usage errors for OUT (exit 64): its modules are embedded", () => {
    const r = runIsolated(plain, ["--tool-module", "x.ts"]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain("plain: --tool-module was decided when this agent was built");
    expect(r.stderr).toContain("Run 'plain --help' for usage.");
    expect(runIsolated(plain, ["--record"]).stderr).toContain("plain: option --record needs a value");
  });
});

describe("luma build: a refusal fails the build (exit 2) with the message luma gives, and writes nothing", () => {
  const failsLikeLuma = (buildArgs: string[], lumaArgs: string[]) => {
    const target = join(out, `refused-${Math.random().toString(36).slice(2)}`);
    const built = runLuma(["build", ...buildArgs, "-o", target]);
    const direct = runLuma(lumaArgs);
    expect(built.exitCode).toBe(2);
    expect(direct.exitCode).toBe(2);
    expect(built.stderr).toBe(direct.stderr);
    expect(built.stdout).toBe("");
    expect(existsSync(target)).toBe(false);
    return built;
  };

  test("a rejected program: the checker's diagnostics, file:line:col", () => {
    const dir = tempDir("luma-build-bad-");
    writeFileSync(join(dir, "bad.luma"), "x = 1\nprint(y)\n");
    const r = failsLikeLuma([join(dir, "bad.luma")], [join(dir, "bad.luma")]);
    expect(r.stderr).toContain("bad.luma:2:7");
    removeAll(dir);
  });

  test("a strict-policy violation (examples/032): every violation listed, as at luma's load", () => {
    const config = ["--config", "examples/strict-refused/luma.config.json"];
    const r = failsLikeLuma(["examples/032_strict_refused.luma", ...config], ["examples/032_strict_refused.luma", ...config]);
    expect(r.stderr).toContain("[child_process] loads 'node:child_process'");
  });

  test("an integrity mismatch: the loader's message", () => {
    const dir = tempDir("luma-build-integrity-");
    writeProject(dir);
    const config = JSON.parse(readFileSync(join(dir, "luma.config.json"), "utf8"));
    config.tool_modules[1] = { path: "./env-tools.cjs", integrity: `sha256-${Buffer.alloc(32).toString("base64")}` };
    writeFileSync(join(dir, "luma.config.json"), JSON.stringify(config));
    const r = failsLikeLuma([join(dir, "prog.luma")], [join(dir, "prog.luma")]);
    expect(r.stderr).toContain("env-tools.cjs");
    removeAll(dir);
  });

  test("the dependencies allowlist holds for everything bundled: a helper file's package import is refused", () => {
    const dir = tempDir("luma-build-allowlist-");
    writeProject(dir, { helperImport: `import other from "other-pkg"; export const o = other;` });
    const target = join(out, "allowlist");
    const r = runLuma(["build", join(dir, "prog.luma"), "-o", target]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Tool module './tools.ts' was refused: it imports 'other-pkg', which is not in its 'dependencies' allowlist.");
    expect(existsSync(target)).toBe(false);
    removeAll(dir);
  });

  test("a Bun macro imported by a helper file fails the build: the bundler never runs macros", () => {
    const dir = tempDir("luma-build-macro-");
    writeProject(dir, { helperImport: `import { now } from "./macro.ts" with { type: "macro" };\nexport const t = now();` });
    writeFileSync(join(dir, "macro.ts"), "export const now = () => 1;\n");
    const target = join(out, "macro");
    const r = runLuma(["build", join(dir, "prog.luma"), "-o", target]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`helper.ts imports a Bun macro (\`with { type: "macro" }\`), which runs code while building`);
    expect(existsSync(target)).toBe(false);
    removeAll(dir);
  });
});

describe("luma build: command line and --target", () => {
  test("luma build without -o OUT is a usage error (exit 64)", () => {
    const r = lumaBuild(["examples/001_hello.luma"]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain("luma build needs -o OUT");
  });

  test("-o naming one of the build's inputs is refused (exit 2) and the input is left intact, not overwritten", () => {
    const dir = tempDir("luma-build-self-");
    writeProject(dir);
    const program = readFileSync(join(dir, "prog.luma"), "utf8");
    for (const input of ["prog.luma", "tools.ts", "luma.config.json"]) {
      const r = runLuma(["build", join(dir, "prog.luma"), "-o", join(dir, input)]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("is one of the build's own inputs");
    }
    expect(readFileSync(join(dir, "prog.luma"), "utf8")).toBe(program);
    removeAll(dir);
  });

  test("an unknown --target fails with a clear message (exit 2)", () => {
    const r = lumaBuild(["examples/001_hello.luma", "-o", join(out, "t"), "--target", "pdp-11"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown --target 'pdp-11'");
  });

  test("--target for another platform whose runtime cannot be had locally fails naming it (offline, empty cache)", () => {
    const offline = { HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9", BUN_INSTALL_CACHE_DIR: tempDir("luma-build-cache-") };
    const r = lumaBuild(["examples/001_hello.luma", "-o", join(out, "w"), "--target", "bun-windows-x64"], offline);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("building for bun-windows-x64 needs Bun's runtime for that platform, which is not available locally");
    removeAll(offline.BUN_INSTALL_CACHE_DIR);
  });
});

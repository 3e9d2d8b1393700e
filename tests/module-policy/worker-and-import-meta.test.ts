/**
 * Ways around the strict checks of an in-process ES module, through `dist/luma`
 * (docs/modules.md "Strict policy"): a `Worker` runs a script no check reads; `import.meta`
 * spelled any way but `import.meta.<member>` reaches `import.meta.env` — the environment —
 * with `"allow_env": false`, and so do `self` and `global`, Bun's other names for the real
 * `globalThis`. Both are refused at load, naming the module, the
 * rule and line:col; each refusal is shown next to what the same module does once the policy
 * allows it, so the test pins the rule, not a broken module.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { project } from "./strict-project";

const PROGRAM = "schema Out { value: string }\ntool probe() -> Out {}\nr = tool probe({})\nprint(r.value)\n";
const config = (module: string, policy: Record<string, unknown> = {}) =>
  JSON.stringify({ tool_modules: [module], tool_module_policy: { sandbox: "strict", ...policy } });

const run = (module: string, files: Record<string, string>, policy: Record<string, unknown> = {}) => {
  const dir = project({ "main.luma": PROGRAM, "luma.config.json": config(module, policy), ...files });
  return runLuma([join(dir, "main.luma")], { env: { LUMA_STRICT_ENV_PROBE: "secret-123" } });
};

const refusal = (module: string, line: string) => `Error: Tool module '${module}' was refused: ${line}\n  = code E0505 (luma explain E0505)\n`;

/** A worker script that reads the environment and reaches child_process: nothing checks it. */
const WORKER_SCRIPT = 'postMessage(process.env.LUMA_STRICT_ENV_PROBE + " " + typeof require("child_process").spawnSync);\n';
const WORKER_TOOL = (spawn: string) =>
  `export const probe = () => new Promise((done) => {\n  const w = ${spawn};\n  w.onmessage = (e) => { done({ value: e.data }); w.terminate(); };\n});\n`;
const WORKER_WHY = `(a worker runs a script no strict check reads; allowed only with "worker_threads" in "allow_builtins")`;

describe("§10 strict: a Worker would run a script no check reads", () => {
  test("new Worker(…) in an in-process ES module is refused at load (exit 2), the script never runs", () => {
    const r = run("./tool.mjs", { "tool.mjs": WORKER_TOOL('new Worker(new URL("./w.js", import.meta.url).href)'), "w.js": WORKER_SCRIPT });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(refusal("./tool.mjs", `2:17 [worker] uses 'Worker' ${WORKER_WHY}`));
    expect(r.exitCode).toBe(2);
  });

  test("through a member of the real globals (globalThis.Worker with allow_env), and SharedWorker, too", () => {
    const r = run("./tool.mjs", { "tool.mjs": WORKER_TOOL('new globalThis.Worker("./w.js")') + "export const s = typeof SharedWorker;\n", "w.js": WORKER_SCRIPT }, { allow_env: true });
    expect(r.stderr).toBe(
      `Error: Tool module './tool.mjs' was refused: 2:28 [worker] uses 'Worker' ${WORKER_WHY}\n` +
        `Tool module './tool.mjs' was refused: 5:25 [worker] uses 'SharedWorker' ${WORKER_WHY}\n  = code E0505 (luma explain E0505)\n`,
    );
    expect(r.exitCode).toBe(2);
  });

  test('a CommonJS module spelling Worker is refused as well (its context has none to call)', () => {
    const r = run("./tool.cjs", { "tool.cjs": "module.exports = { probe: () => ({ value: typeof Worker }) };\n" });
    expect(r.stderr).toBe(refusal("./tool.cjs", `1:50 [worker] uses 'Worker' ${WORKER_WHY}`));
    expect(r.exitCode).toBe(2);
  });

  test('with "worker_threads" in allow_builtins the policy hands workers over: the same module runs its worker', () => {
    const r = run("./tool.mjs", { "tool.mjs": WORKER_TOOL('new Worker(new URL("./w.js", import.meta.url).href)'), "w.js": WORKER_SCRIPT }, { allow_builtins: ["worker_threads"], allow_env: true });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("secret-123 function\n");
  });
});

const ENV_WHY = `("allow_env" is false: computed or destructured access reaches import.meta.env)`;

describe('§10 strict: with "allow_env": false no spelling of import.meta reaches the environment', () => {
  const SPELLINGS: [string, string, string][] = [
    ['import.meta["env"]', 'export const probe = () => ({ value: String(import.meta["env"].LUMA_STRICT_ENV_PROBE) });', `1:45 [allow_env] uses 'import.meta' other than as import.meta.<member> ${ENV_WHY}`],
    ["import.meta?.env", "export const probe = () => ({ value: String(import.meta?.env.LUMA_STRICT_ENV_PROBE) });", `1:45 [allow_env] mentions 'import.meta?.env' ("allow_env" is false)`],
    ["const { env } = import.meta", "const { env } = import.meta;\nexport const probe = () => ({ value: String(env.LUMA_STRICT_ENV_PROBE) });", `1:17 [allow_env] uses 'import.meta' other than as import.meta.<member> ${ENV_WHY}`],
    ["import.meta passed as a value", "const read = (m) => m.env.LUMA_STRICT_ENV_PROBE;\nexport const probe = () => ({ value: String(read(import.meta)) });", `2:50 [allow_env] uses 'import.meta' other than as import.meta.<member> ${ENV_WHY}`],
    ["import/**/.meta.env (a comment between the words)", "export const probe = () => ({ value: String(import/**/.meta.env.LUMA_STRICT_ENV_PROBE) });", `1:45 [allow_env] mentions 'import.meta.env' ("allow_env" is false)`],
  ];

  for (const [name, text, expected] of SPELLINGS) {
    test(`${name} is refused at load (exit 2)`, () => {
      const r = run("./tool.mjs", { "tool.mjs": text + "\n" });
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(refusal("./tool.mjs", expected));
      expect(r.exitCode).toBe(2);
    });
  }

  test('import.meta.<member> stays (import.meta.url), and with "allow_env": true import.meta["env"] reads the environment', () => {
    const url = run("./tool.mjs", { "tool.mjs": 'export const probe = () => ({ value: String(import.meta.url.endsWith("/tool.mjs")) });\n' });
    expect(url.stderr).toBe("");
    expect(url.stdout).toBe("true\n");
    const allowed = run("./tool.mjs", { "tool.mjs": SPELLINGS[0][1] + "\n" }, { allow_env: true });
    expect(allowed.stderr).toBe("");
    expect(allowed.stdout).toBe("secret-123\n");
  });
});

describe('§10 strict: with "allow_env": false, self and global (the real globalThis of an ES module) are refused', () => {
  test('self["pro" + "cess"] and global["pro" + "cess"] are refused at load (exit 2), a key or member named self is not', () => {
    const r = run("./tool.mjs", {
      "tool.mjs":
        "const o = { self: 1 };\n" +
        'export const probe = () => ({ value: String(o.self) + self["pro" + "cess"].env.LUMA_STRICT_ENV_PROBE + global["pro" + "cess"].env.LUMA_STRICT_ENV_PROBE });\n',
    });
    expect(r.stdout).toBe("");
    const why = `(in an in-process ES module it is the real globalThis; "allow_env" is false)`;
    expect(r.stderr).toBe(
      `Error: Tool module './tool.mjs' was refused: 2:55 [allow_env] mentions 'self' ${why}
` +
        `Tool module './tool.mjs' was refused: 2:104 [allow_env] mentions 'global' ${why}
  = code E0505 (luma explain E0505)
`,
    );
    expect(r.exitCode).toBe(2);
  });
});

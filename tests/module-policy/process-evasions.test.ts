/**
 * Issue #30: every evasion pinned in evasions.test.ts (evasion-attempts.ts), run under
 * `"sandbox": "process"` through dist/luma, as one table. `"process"` keeps strict's checks
 * and its VM context, so a row refused at load, blocked when it runs or finding nothing
 * under strict does the same here. A KNOWN GAP of strict — an escape strict does not stop —
 * still runs under `"process"`, but what it reaches is its child's sandbox: each gap row is
 * taken on to a target (TARGETS) — a host file outside its view, the network, the host's
 * environment, another process — and must fail to reach it, while the same module under
 * `"strict"` (the control) does reach it, so a row would fail if the tier were missing.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { runLumaAsync } from "../support/luma-binary";
import { ATTEMPTS, type Outcome } from "./evasion-attempts";
import { it, projectDir } from "./process-project";

const SECRET = "s3cret-evasion-value";
/** What each target's probe is handed: the paths, address and pid it goes for. */
interface Targets { file: string; url: string; pid: number }

/** The program: the probe's return value as JSON, or the error it failed with. */
const APP = `schema Out { value?: any }
tool probe(file: string, url: string, pid: int) -> Out { timeout: 10000 }
try {
  print("ok", json(tool probe({ file: env("EVASION_FILE"), url: env("EVASION_URL"), pid: int(env("EVASION_PID")) }).value))
} catch e {
  print("err", e.code, e.message)
}
`;

/**
 * The row's module with its `probe` renamed and wrapped, so any value (a string, `true`,
 * `null`) comes back in `Out`. Lines and columns stay: a row pins positions.
 */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function wrapped(file: string, source: string): string {
  if (file.endsWith(".cjs")) return `${source}\nconst innerProbe = module.exports.probe; module.exports = { probe: async (i) => ({ value: await innerProbe(i) }) };\n`;
  const renamed = source.replace("export const probe =", "const probeInner__ ="); // the same length
  if (renamed === source) throw new Error(`row source has no 'export const probe =': ${source}`);
  return `${renamed}\nexport const probe = async (i) => ({ value: await probeInner__(i) });\n`;
}

const cjs = (body: string) => `module.exports = { probe: ${body} };`;

type Target = "a host file" | "the network" | "the host's environment" | "another process";

/**
 * Each known gap of strict, taken on to what it would be used for: `source` uses the row's
 * own escape; `reached` is what it gets under `"strict"` (the control), `denied` how it fails
 * under `"process"`.
 */
const TARGETS: Record<string, { target: Target; source: string; reached: unknown; denied: RegExp }> = {
  "ESM: Bun.spawnSync stays (the honest contract)": {
    target: "another process",
    source: 'export const probe = (i) => Bun.spawnSync(["cat", i.file]).stdout.toString();',
    reached: SECRET,
    denied: /^err TOOL_HANDLER_ERROR Executable not found in \$PATH: "cat"/,
  },
  "GAP Bun.spawnSync (the honest contract)": {
    target: "another process",
    source: cjs('(i) => Bun.spawnSync(["kill", "-0", String(i.pid)]).exitCode'),
    reached: 0,
    denied: /^err TOOL_HANDLER_ERROR Executable not found in \$PATH: "kill"/,
  },
  "GAP Bun.spawn": {
    target: "another process",
    source: 'export const probe = async (i: { file: string }) => await Bun.spawn(["cat", i.file]).exited;',
    reached: 0,
    denied: /^err TOOL_HANDLER_ERROR Executable not found in \$PATH: "cat"/,
  },
  "GAP host Function through a Bun member (Bun.spawnSync.constructor)": {
    target: "the host's environment",
    source: cjs('() => Bun.spawnSync.constructor("return pro" + "cess")().env.EVASION_SECRET ?? "absent"'),
    reached: SECRET,
    denied: /^ok "absent"\n$/,
  },
  "GAP the handler's own input leads to the host Function": {
    target: "a host file",
    source: cjs('async (i) => await i.constructor.constructor("return Bu" + "n")().file(i.file).text()'),
    reached: SECRET,
    denied: /^err TOOL_HANDLER_ERROR .*ENOENT/,
  },
  "GAP the host Function hands back the real Bun, plugin included": {
    target: "the network",
    source: cjs('async (i) => await (await Bun.spawnSync.constructor("return fe" + "tch")()(i.url)).text()'),
    reached: "pong",
    denied: /^err TOOL_HANDLER_ERROR .*Unable to connect/,
  },
  'GAP ESM with allow_env: globalThis["B" + "un"] is the real Bun': {
    target: "a host file",
    source: 'export const probe = async (i) => await globalThis["B" + "un"]["fi" + "le"](i.file).text();',
    reached: SECRET,
    denied: /^err TOOL_HANDLER_ERROR .*ENOENT/,
  },
  'GAP with "fs" allowed, Bun.file reads any file (as fs does)': {
    target: "a host file",
    source: cjs("async (i) => await Bun.file(i.file).text()"),
    reached: SECRET,
    denied: /^err TOOL_HANDLER_ERROR .*ENOENT/,
  },
  'GAP ESM with allow_env: globalThis["Wor" + "ker"] is the real Worker': {
    target: "a host file",
    source:
      'export const probe = (i) => new Promise((ok, no) => { const w = new globalThis["Wor" + "ker"](URL.createObjectURL(new Blob(["onmessage = async (e) => postMessage(await Bu" + "n.fi" + "le(e.data).text());"]))); w.onmessage = (e) => { ok(e.data); w.terminate(); }; w.onerror = (e) => { no(new Error(String(e.message))); w.terminate(); }; w.postMessage(i.file); });',
    reached: SECRET,
    denied: /^err TOOL_HANDLER_ERROR [\s\S]*ENOENT/,
  },
  "GAP ESM: the real Function reads the environment with allow_env: false": {
    target: "the host's environment",
    source: 'export const probe = () => [].constructor.constructor("return pro" + "cess")().env.EVASION_SECRET ?? "absent";',
    reached: SECRET,
    denied: /^ok "absent"\n$/,
  },
  "GAP ESM under strict sees the real globals (Function, Buffer)": {
    target: "another process",
    source: 'export const probe = (i) => [].constructor.constructor("return pro" + "cess")().kill(i.pid, 0);',
    reached: true,
    denied: /^err TOOL_HANDLER_ERROR .*ESRCH/,
  },
};

let server: ReturnType<typeof Bun.serve>;
let targets: Targets;
beforeAll(() => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("pong") });
  const dir = projectDir("luma-evasion-target-", { "secret.txt": SECRET });
  targets = { file: `${dir}/secret.txt`, url: `http://127.0.0.1:${server.port}/`, pid: process.pid };
});
afterAll(() => server.stop(true));

async function runRow(file: string, source: string, policy: object): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const dir = projectDir("luma-evasion-process-", {
    [file]: wrapped(file, source),
    "app.luma": APP,
    "luma.config.json": JSON.stringify({ tool_modules: [file], tool_module_policy: policy }),
  });
  return runLumaAsync([`${dir}/app.luma`], { EVASION_FILE: targets.file, EVASION_URL: targets.url, EVASION_PID: String(targets.pid), EVASION_SECRET: SECRET });
}

/**
 * Hardening issue #22 items 10–11 (what Bun would load or run around strict's checks), each
 * named in its rows' titles so the proof is traceable: the pinned rows below, and the
 * two-module row after the table.
 */
const ISSUE_22: Record<string, string> = {
  'ESM: import … with { type: "js" } (a .json file run as code)': "import attributes running a .json as code",
  'import("./d.json", { with: { type: "sqlite" } })': "import attributes running a .json as code",
  "ESM: new Worker(…) (a script no check reads)": "new Worker scripts",
  'GAP ESM with allow_env: globalThis["Wor" + "ker"] is the real Worker': "new Worker scripts",
  'ESM: import.meta["env"]': "import.meta env spellings",
  "ESM: const { env } = import.meta": "import.meta env spellings",
  "ESM: import.meta?.env": "import.meta env spellings",
};
const titled = (name: string) => (ISSUE_22[name] ? `issue #22 items 10–11 (${ISSUE_22[name]}): ${name}` : name);

describe("issue #30: every pinned evasion, under process", () => {
  it("every issue #22 item 10–11 name is a pinned row", () => {
    const names = new Set(ATTEMPTS.map((a) => a.name));
    expect(Object.keys(ISSUE_22).filter((name) => !names.has(name))).toEqual([]);
  });

  it("every known gap has a target, and every target is a gap row", () => {
    const gaps = ATTEMPTS.filter((a) => "knownGap" in a.outcome).map((a) => a.name);
    expect(Object.keys(TARGETS).sort()).toEqual(gaps.sort());
  });

  for (const attempt of ATTEMPTS) {
    const [kind, expected] = Object.entries(attempt.outcome)[0] as [keyof Outcome & string, unknown];
    const policy = { ...(attempt.policy ?? {}), sandbox: "process" };
    if (kind === "knownGap") {
      const gap = TARGETS[attempt.name];
      it(`${titled(attempt.name)} → a strict gap; taken on to ${gap?.target ?? "(no target)"}, it fails to reach it`, async () => {
        expect(gap).toBeDefined(); // a new gap row needs its target here
        const control = await runRow(attempt.file, gap.source, { ...policy, sandbox: "strict" });
        expect(control.stdout).toBe(`ok ${JSON.stringify(gap.reached)}\n`);
        const r = await runRow(attempt.file, gap.source, policy);
        expect(r.stdout).toMatch(gap.denied);
        expect(r.stdout + r.stderr).not.toContain(SECRET);
        expect(r.stdout + r.stderr).not.toContain("pong");
      });
      continue;
    }
    it(`${titled(attempt.name)} → ${kind}, as under strict`, async () => {
      const r = await runRow(attempt.file, attempt.source, policy);
      switch (kind) {
        case "refusedAtLoad": {
          expect(r.exitCode).toBe(2);
          expect(r.stdout).toBe("");
          const position = /^\d+:\d+ /.test(expected as string) ? "" : "(?:\\d+:\\d+ )?";
          expect(r.stderr).toMatch(new RegExp(`Tool module '${escape(attempt.file)}' was refused: ${position}${escape(expected as string)}`));
          return;
        }
        case "blockedAtRun":
          expect(r.stdout).toStartWith("err ");
          expect(r.stdout).toContain(expected as string);
          return;
        case "notReachable":
          expect(r.stdout).toBe(`ok ${JSON.stringify(expected)}\n`);
          return;
      }
    });
  }
});

/**
 * Issue #22 items 10–11, the host-Function gap replacing another module's main text: under
 * strict, a module that reaches the host's `Bun` (the pinned gap) registers a Bun.plugin
 * that serves its own text for another module's file, which then runs instead of the
 * checked one. Under process each module loads in its own child: the plugin stays in the
 * child that registered it.
 */
describe("issue #22 items 10–11 under process: the host-Function gap replacing another module's main text", () => {
  const REPLACER = `const B = Bun.spawnSync.constructor("return Bu" + "n")();
B.plugin({ name: "replacer", setup(b) { b.onLoad({ filter: /\\/victim\\.mjs$/ }, () => ({ contents: 'export const probe = () => ({ value: "replaced" });', loader: "js" })); } });
module.exports = { other: () => ({ value: "a" }) };
`;
  const app = `schema Out { value?: any }
tool probe() -> Out { side_effects: "read" }
tool other() -> Out { side_effects: "read" }
print(tool probe({}).value)
`;
  const runBoth = (sandbox: string) => {
    const dir = projectDir("luma-evasion-replace-", {
      "replacer.cjs": REPLACER,
      "victim.mjs": 'export const probe = () => ({ value: "checked" });\n',
      "app.luma": app,
      "luma.config.json": JSON.stringify({ tool_modules: ["./replacer.cjs", "./victim.mjs"], tool_module_policy: { sandbox } }),
    });
    return runLumaAsync([`${dir}/app.luma`]);
  };

  it("the control: under strict the other module's text is replaced", async () => {
    expect((await runBoth("strict")).stdout).toBe("replaced\n");
  });

  it("under process the other module runs its checked text", async () => {
    const r = await runBoth("process");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("checked\n");
  });
});

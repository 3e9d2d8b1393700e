/**
 * The child side of `sandbox: "process"`: what the luma binary does when it starts with
 * LUMA_TOOL_HOST=1 (the CLI checks that before anything else), inside its bubblewrap
 * sandbox. It reads framed requests on stdin and writes framed replies on stdout
 * (frames.ts, wire.ts): first a load — the module is loaded exactly as `"strict"` loads it
 * (strict's checks again, CommonJS/TypeScript in the VM context), after the child set its
 * limits and seccomp filter on itself (child-confinement.ts) — then calls, each run
 * with its own AbortSignal, which an abort message fires.
 *
 * Stdout is the channel: console output goes to stderr, which luma forwards to its own.
 * `process.exit()` and the like are refused as in-process (base/exit-guard.ts), so a handler
 * calling them fails its call the same way in both tiers.
 */
import { exitProcess, installExitGuard } from "../../base/exit-guard";
import type { LoadedModule } from "../../module-loading/loaded-module";
import type { ModulePolicy } from "../../module-policy/module-policy";
import { readModuleTools, type ModuleTools } from "../registry/export-shape";
import { loadToolModule } from "../registry/load-tool-module";
import { bundledPathOf, runBundledModule } from "../registry/run-bundled-module";
import { installLumaModule } from "../../module-loading/luma-virtual-module";
import { moduleLoadFailure } from "../../module-loading/load-failure";
import { assertNever } from "../../../syntax/assert-never";
import { encodeFrame, FrameReader } from "./frames";
import { confineChild, openLibc, type Libc } from "./child-confinement";
import { toWireError, type ChildMessage, type LoadRequest, type ParentMessage } from "./wire";

const out = Bun.stdout.writer();
const reply = (message: ChildMessage): void => {
  out.write(encodeFrame(message));
  void out.flush();
};

const toStrictPolicy = (load: LoadRequest): ModulePolicy => ({
  ...load.policy,
  strict: true,
  tier: "strict",
  allowBuiltins: new Set(load.policy.allowBuiltins),
  allowPaths: [],
  allowSpawn: false,
  killGraceMs: 0,
});

/** Console output to stderr: stdout carries frames only. */
function quietStdout(): void {
  const toErr = (...args: unknown[]) => console.error(...args);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
  console.trace = toErr;
  const stderrWrite = process.stderr.write.bind(process.stderr);
  process.stdout.write = stderrWrite as typeof process.stdout.write;
}

export async function serveToolHost(): Promise<number> {
  delete process.env.LUMA_TOOL_HOST;
  quietStdout();
  installExitGuard((thrown) => console.error(`luma tool host: ${thrown instanceof Error ? thrown.stack ?? thrown.message : String(thrown)}`));
  // While the child waits for its load (started early, it waits while luma checks the
  // program: early-start.ts), it loads what every load needs: the strict loader's code and
  // libc's functions for the confinement. Nothing of the module is known yet, nor run.
  const warm = warmUp();
  const reader = new FrameReader();
  let tools: ModuleTools | undefined;
  const aborts = new Map<number, AbortController>();

  const onCall = async (m: Extract<ParentMessage, { t: "call" }>): Promise<void> => {
    const controller = new AbortController();
    aborts.set(m.id, controller);
    try {
      if (m.env) Object.assign(process.env, m.env);
      const value = await invoke(tools, m, controller.signal);
      reply({ t: "result", id: m.id, ok: true, value: value === undefined ? null : value });
    } catch (e) {
      reply({ t: "result", id: m.id, ok: false, error: toWireError(e) });
    } finally {
      aborts.delete(m.id);
    }
  };

  for await (const chunk of Bun.stdin.stream()) {
    for (const raw of reader.push(chunk)) {
      const m = raw as ParentMessage;
      if (m.t === "load") {
        // bwrap sets PWD for --chdir: the child's environment is only what allow_env lets through.
        if (!m.policy.allowEnv || (m.policy.allowEnvNames && !m.policy.allowEnvNames.includes("PWD"))) delete process.env.PWD;
        try {
          // Before a line of the module runs: its limits, and no ptrace, no execve unless allow_spawn.
          await confineChild({ allowSpawn: m.policy.allowSpawn, libc: await warm });
          tools = readModuleTools(await loadModule(m));
          reply({ t: "loaded", handlers: [...tools.handlers.keys()], datasources: [...tools.datasources.keys()] });
        } catch (e) {
          reply({ t: "load-failed", error: toWireError(e) });
        }
      } else if (m.t === "call") void onCall(m);
      else if (m.t === "abort") aborts.get(m.id)?.abort(new DOMException("The tool call was aborted.", "AbortError"));
    }
  }
  // luma closed the channel (its run ended): past the guard, which refuses the CLI's own exit too.
  return exitProcess(0);
}

/** The strict loader's chunk imported, libc opened (child-confinement.ts); a failure is left to the load, which reports it. */
async function warmUp(): Promise<Libc | undefined> {
  const [, libc] = await Promise.allSettled([import("../../module-policy/load-strict-module"), openLibc()]);
  return libc.status === "fulfilled" ? libc.value : undefined;
}

/** The module, loaded as `"strict"` loads it: from its file, or from a built agent's bundled text. */
async function loadModule(load: LoadRequest): Promise<LoadedModule> {
  const policy = toStrictPolicy(load);
  const from = load.from;
  switch (from.kind) {
    case "file": {
      const entry = from.rules?.allow ? { path: from.realPath, dependencies: from.rules.allow } : undefined;
      return loadToolModule(from.realPath, [{ shownPath: load.shownPath, absPath: from.realPath, entry, dependencyRoot: from.rules?.root }], policy);
    }
    case "bundled": {
      installLumaModule();
      let exports: unknown;
      try {
        exports = await runBundledModule(from.index, from.module, policy);
      } catch (e) {
        if ((e as { phase?: unknown }).phase === "startup") throw e; // a refused require: already one of ours
        throw moduleLoadFailure(load.shownPath, e);
      }
      return { shownPath: load.shownPath, realPath: bundledPathOf(from.index, from.module), kind: from.module.kind, exports };
    }
    default:
      return assertNever(from);
  }
}

function invoke(tools: ModuleTools | undefined, m: Extract<ParentMessage, { t: "call" }>, signal: AbortSignal): Promise<unknown> {
  const fn = m.kind === "tool" ? tools?.handlers.get(m.name) : tools?.datasources.get(m.name);
  if (!fn) return Promise.reject(new Error(`the module has no ${m.kind === "tool" ? "handler" : "datasource bridge"} '${m.name}'`));
  const handed = m.signal ? signal : undefined;
  try {
    if (m.kind === "tool") {
      const [input, needs, ctx] = m.args;
      return Promise.resolve((fn as (...a: unknown[]) => unknown)(input, handed, needs, ctx ?? undefined));
    }
    const [sql, params] = m.args;
    return Promise.resolve((fn as (...a: unknown[]) => unknown)(sql, params, handed));
  } catch (e) {
    return Promise.reject(e);
  }
}

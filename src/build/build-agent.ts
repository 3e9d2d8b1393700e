/**
 * `luma build FILE -o OUT` (issue #13): everything that can be decided before the agent runs
 * is decided here, once, by the very code `luma FILE` runs at start-up — so a build fails
 * exactly where and how `luma` would refuse to start (exit 2, the same messages):
 *
 * 1. the program is parsed and checked (warnings are printed now and at each run, as `luma` does);
 * 2. the config is read and validated (a cassette it names, `replay`, is read and embedded:
 *    embedded-cassette.ts); a literal store, journal, datasource or MCP URL with
 *    a password is refused before any module loads (literal-url-credentials.ts): it would be
 *    embedded, and URLs are read at run time;
 * 3. the tool modules are loaded under the config — integrity,
 *    `version`, `dependencies`, `dependency_root`, the strict policy — and the registry is
 *    built (every declared tool has a handler), the runtime-only rules are checked;
 * 4. each module is bundled with its npm packages (bundle-tool-module.ts), then payload and
 *    runtime are compiled into OUT (compile-agent.ts).
 *
 * Step 2 loads the modules, so their top-level code runs once at build time, as it does at
 * every `luma` start. Nothing of the environment is read into the payload.
 */
import { dirname, relative, resolve } from "node:path";
import { loadConfig } from "../config/load-config";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { loadProgram, readSource } from "../load/load-program";
import { checkToolRuntimeRules } from "../runtime/tools/pipeline";
import { buildRegistry } from "../runtime/tools/registry/build-registry";
import { loadRequestedModules } from "../runtime/tools/registry/load-tool-registry";
import { VERSION } from "../version";
import { PAYLOAD_FORMAT, type AgentManifest, type AgentPayload } from "./agent-payload";
import { bundleToolModule, sha256 } from "./bundle-tool-module";
import { checkTarget, compileAgent } from "./compile-agent";
import { embeddedCassette } from "./embedded-cassette";
import { refuseLiteralCredentials } from "./literal-url-credentials";

export interface BuildAgentOptions {
  file: string;
  out: string;
  toolModules: string[];
  configPath?: string;
  target?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Filled with the program's source, for rendering diagnostics. */
  sources: Map<string, string>;
  /** One-line notices (policy notices), as at start-up. */
  notice: (line: string) => void;
}

export interface BuiltAgent {
  warnings: Diagnostic[];
  manifest: AgentManifest;
}

export async function buildAgent(opts: BuildAgentOptions): Promise<BuiltAgent> {
  const target = checkTarget(opts.target);
  const source = readSource(opts.file);
  opts.sources.set(opts.file, source);
  const { program, diagnostics } = await loadProgram(opts.file, { source, env: opts.env, sources: opts.sources });

  const programDir = dirname(resolve(opts.cwd, opts.file));
  const config = await loadConfig({ configPath: opts.configPath && resolve(opts.cwd, opts.configPath), programDir, cwd: opts.cwd });
  // Before any module loads: a password in a literal URL would be embedded, so nothing is built.
  refuseLiteralCredentials(program, source, config.path ? config.config : undefined, config.path && (opts.configPath ?? relative(opts.cwd, config.path)));
  const start = { program, config, cliModules: opts.toolModules, cwd: opts.cwd, programDir, notice: opts.notice };
  const { policy, modules } = await loadRequestedModules(start);
  // Under "process" loading started each module's child (the build judged it there, as a run
  // would): the build needs only their export shapes, so the children stop now.
  for (const m of modules) m.close?.();
  buildRegistry({ program, modules, maxConcurrency: policy?.maxConcurrency });
  const ruleError = checkToolRuntimeRules(program);
  if (ruleError) throw ruleError;

  const replay = embeddedCassette(config, opts.configPath);
  // The imported files' texts (the linked program holds their declarations already).
  const imported = (program.linked ?? []).slice(1).flatMap((f) => (opts.sources.has(f.file) ? [{ file: f.file, source: opts.sources.get(f.file)! }] : []));
  const bundled = [];
  for (const m of modules) bundled.push(await bundleToolModule(m, programDir));
  const manifest: AgentManifest = {
    luma_version: VERSION,
    program: { path: opts.file, sha256: sha256(source) },
    imports: imported.length > 0 ? imported.map((f) => ({ path: f.file, sha256: sha256(f.source) })) : undefined,
    config: config.path ? { path: opts.configPath ?? relative(opts.cwd, config.path), sha256: sha256(await Bun.file(config.path).bytes()) } : undefined,
    replay: replay && { path: replay.cassette.path, sha256: sha256(replay.cassette.text) },
    tool_module_policy: policy?.tier ?? "none",
    modules: bundled.map((b) => b.manifest),
    target,
  };
  const payload: AgentPayload = {
    format: PAYLOAD_FORMAT,
    file: opts.file,
    source,
    imported: imported.length > 0 ? imported : undefined,
    program,
    warnings: diagnostics,
    config: config.path ? config.config : undefined,
    replay: replay?.cassette,
    modules: bundled.map((b) => b.embedded),
    manifest,
  };
  const inputs = [resolve(opts.cwd, opts.file), ...imported.map((f) => resolve(opts.cwd, f.file)), ...(config.path ? [config.path] : []), ...(replay ? [replay.file] : []), ...modules.map((m) => m.realPath)];
  await compileAgent(payload, opts.out, target, inputs);
  return { warnings: diagnostics, manifest };
}

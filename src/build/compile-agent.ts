/**
 * The last build step: the payload and the Luma runtime bundle, compiled into one executable
 * by `Bun.build({ compile })`. For the host platform Bun uses the running executable as the
 * runtime it embeds, so this works from the compiled `dist/luma`, offline, with no `bun`
 * installed. The entry sets the payload before the runtime bundle runs (ES modules evaluate
 * in import order); src/cli/main.ts finds it there.
 *
 * `--target` for another platform needs that platform's Bun runtime, which Bun fetches from
 * the network; when it cannot, the build fails naming the target and what to do instead.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startupError } from "../diagnostics/luma-error";
import { PAYLOAD_SYMBOL, sealPayload, type AgentPayload } from "./agent-payload";
import { RUNTIME_BUNDLE_PATH } from "./runtime-bundle-path";
import { NO_WORKING_DIRECTORY_AUTOLOADS } from "./standalone-options";

/** `bun-linux-x64`, `bun-darwin-arm64`, optionally `-baseline`/`-modern` and `-musl`. */
const TARGET = /^bun-(linux|darwin|windows)-(x64|arm64)(-(baseline|modern))?(-musl)?$/;

export const hostTarget = (): string => `bun-${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

export function checkTarget(target: string | undefined): string {
  if (target === undefined) return hostTarget();
  if (!TARGET.test(target)) {
    throw startupError(`luma build: unknown --target '${target}' (expected bun-OS-ARCH, e.g. bun-linux-x64, bun-linux-arm64, bun-darwin-arm64, bun-windows-x64)`, { catalogCode: "E0703" });
  }
  return target;
}

/** The runtime bundle as build.ts packed it: the entry chunk's name and every chunk's text. */
interface RuntimeBundle {
  entry: string;
  files: Record<string, string>;
}

/** A chunk name as the bundler writes them: a plain file name, never a path. */
const CHUNK_NAME = /^[\w.-]+\.js$/;

async function runtimeBundle(): Promise<RuntimeBundle> {
  const text = RUNTIME_BUNDLE_PATH ? await Bun.file(RUNTIME_BUNDLE_PATH).text().catch(() => "") : "";
  let bundle: RuntimeBundle | undefined;
  try {
    bundle = text ? (JSON.parse(text) as RuntimeBundle) : undefined;
  } catch {
    bundle = undefined;
  }
  const names = bundle && typeof bundle.files === "object" && bundle.files !== null ? Object.keys(bundle.files) : [];
  const whole = bundle !== undefined && names.includes(bundle.entry) && names.every((n) => CHUNK_NAME.test(n) && typeof bundle!.files[n] === "string");
  if (!whole) throw startupError("luma build: this luma has no runtime bundle to build from (run 'bun run build' to make dist/luma)", { catalogCode: "E0704" });
  return bundle!;
}

/** `inputs`: the files the build read (program, config, modules); OUT must not be one of them. */
export async function compileAgent(payload: AgentPayload, out: string, target: string, inputs: string[]): Promise<void> {
  const outfile = resolve(out);
  if (inputs.some((input) => resolve(input) === outfile)) throw startupError(`luma build: -o ${out} is one of the build's own inputs; choose another OUT`, { catalogCode: "E0705" });
  if (statSync(outfile, { throwIfNoEntry: false })?.isDirectory()) throw startupError(`luma build: -o ${out} is a directory; name the executable to write`, { catalogCode: "E0705" });
  const runtime = await runtimeBundle();
  const dir = mkdtempSync(join(tmpdir(), "luma-build-"));
  // Written beside OUT, then renamed over it: a failed build leaves no half file, and an agent
  // running from OUT keeps its (old) file.
  const partial = `${outfile}.${process.pid}.partial`;
  try {
    // JSON inside a string literal, with its sha256: verified, then parsed by JSON.parse at
    // start-up (agent-payload.ts) — faster than an object literal, and the digest covers it all.
    const sealed = sealPayload(payload);
    const payloadJs = `globalThis[Symbol.for(${JSON.stringify(PAYLOAD_SYMBOL)})] = ${JSON.stringify(sealed)};\n`;
    writeFileSync(join(dir, "payload.js"), payloadJs);
    // The runtime's chunks in a folder of their own: no chunk name can meet the entry's files.
    mkdirSync(join(dir, "runtime"));
    for (const [name, code] of Object.entries(runtime.files)) writeFileSync(join(dir, "runtime", name), code);
    writeFileSync(join(dir, "entry.js"), `import "./payload.js";\nimport "./runtime/${runtime.entry}";\n`);
    const cross = target !== hostTarget();
    let result: Awaited<ReturnType<typeof Bun.build>>;
    try {
      result = await Bun.build({
        entrypoints: [join(dir, "entry.js")],
        target: "bun",
        format: "esm",
        minify: true,
        bytecode: true,
        // The runtime's chunks stay chunks: a built agent loads only what its program uses.
        splitting: true,
        sourcemap: "none",
        throw: false,
        // A built agent reads no .env or bunfig.toml from where it is started (standalone-options.ts).
        compile: { outfile: partial, ...NO_WORKING_DIRECTORY_AUTOLOADS, ...(cross ? { target: target as Bun.Build.CompileTarget } : {}) },
      } as Parameters<typeof Bun.build>[0]);
    } catch (e) {
      throw compileFailure(target, cross, (e as Error).message);
    }
    if (!result.success) throw compileFailure(target, cross, result.logs.map((l) => String(l.message ?? l)).join("; "));
    // Bun names a Windows executable `….exe` whatever outfile says.
    renameSync(existsSync(partial) ? partial : `${partial}.exe`, outfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    for (const leftover of [partial, `${partial}.exe`]) rmSync(leftover, { force: true });
  }
}

function compileFailure(target: string, cross: boolean, why: string) {
  const hint = cross
    ? ` — building for ${target} needs Bun's runtime for that platform, which is not available locally (it is downloaded from the network); build on a ${target} machine, or leave out --target to build for this one (${hostTarget()})`
    : "";
  return startupError(`luma build: could not write the executable for ${target}: ${why}${hint}`, { catalogCode: "E0706" });
}

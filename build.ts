/**
 * `bun run build` → `dist/luma`, one standalone executable (Bun runtime included).
 *
 * 1. Regenerate the grammar recipe from grammar.ohm, so the binary never compiles the
 *    grammar from source at run time (120–160 ms per process otherwise).
 * 2. Bundle src/cli/main.ts into the runtime that `luma build` compiles into each built
 *    agent (src/build/runtime-bundle-path.ts): minified, no bytecode, split into chunks, all
 *    packed into one file, `dist/luma-runtime.json` ({ entry, files }). Inside it, the
 *    import of that very file is a stub, so it never contains itself.
 * 3. Compile src/cli/main.ts with bytecode (faster start) into `dist/luma`, the runtime
 *    bundle embedded as a file.
 *
 * Both are split: what `main.ts` imports statically is ~30 KB, and every stage behind a
 * dynamic `import()` (parser, checker, runtime, providers, stores, MCP, LSP) is a chunk
 * loaded only when a command reaches it. As one bundle, loading the whole ~1.1 MB of code
 * cost every start ~8 ms (ROADMAP U7).
 */
import { existsSync, rmSync } from "node:fs";
import { basename } from "node:path";
import { NO_WORKING_DIRECTORY_AUTOLOADS } from "./src/build/standalone-options";

const recipeScript = "scripts/gen-grammar-recipe.ts";
if (existsSync(recipeScript)) {
  const gen = Bun.spawnSync(["bun", recipeScript], { stdout: "inherit", stderr: "inherit" });
  if (gen.exitCode !== 0) {
    console.error("build: generating the grammar recipe failed");
    process.exit(1);
  }
}

// luma ui's page, bundled into a module of two strings that the binary embeds.
const uiAssets = Bun.spawnSync(["bun", "scripts/gen-ui-assets.ts"], { stdout: "inherit", stderr: "inherit" });
if (uiAssets.exitCode !== 0) {
  console.error("build: bundling the luma ui page failed");
  process.exit(1);
}

const runtimeBundle = await Bun.build({
  entrypoints: ["src/cli/main.ts"],
  target: "bun",
  minify: true,
  format: "esm",
  splitting: true,
  sourcemap: "none",
  plugins: [
    {
      name: "runtime-bundle-stub",
      setup(build) {
        build.onResolve({ filter: /luma-runtime\.json$/ }, (args) => ({ path: args.path, namespace: "luma-runtime-stub" }));
        build.onLoad({ filter: /.*/, namespace: "luma-runtime-stub" }, () => ({ contents: `export default "";`, loader: "js" }));
      },
    },
  ],
});
const entries = runtimeBundle.outputs.filter((o) => o.kind === "entry-point");
if (!runtimeBundle.success || entries.length !== 1 || runtimeBundle.outputs.some((o) => o.kind !== "entry-point" && o.kind !== "chunk")) {
  for (const log of runtimeBundle.logs) console.error(log);
  console.error("build: bundling the agent runtime failed");
  process.exit(1);
}
const files: Record<string, string> = {};
for (const output of runtimeBundle.outputs) files[basename(output.path)] = await output.text();
await Bun.write("dist/luma-runtime.json", JSON.stringify({ entry: basename(entries[0].path), files }));
rmSync("dist/luma-runtime.js", { force: true }); // the single-file bundle of earlier builds

const result = await Bun.build({
  entrypoints: ["src/cli/main.ts"],
  target: "bun",
  minify: true,
  bytecode: true,
  format: "esm",
  splitting: true,
  sourcemap: "none",
  // No .env, bunfig.toml, tsconfig.json or package.json from where `luma` is started.
  compile: { outfile: "dist/luma", ...NO_WORKING_DIRECTORY_AUTOLOADS },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log("built dist/luma");

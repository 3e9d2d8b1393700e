/**
 * `bun run build` → `dist/luma`, one standalone executable (Bun runtime included).
 *
 * 1. Regenerate the grammar recipe from grammar.ohm, so the binary never compiles the
 *    grammar from source at run time (120–160 ms per process otherwise).
 * 2. Bundle src/cli/main.ts into `dist/luma-runtime.js` (minified, no bytecode): the runtime
 *    that `luma build` compiles into each built agent (src/build/runtime-bundle-path.ts).
 *    Inside it, the import of that very file is a stub, so it never contains itself.
 * 3. Compile src/cli/main.ts with bytecode (faster start) into `dist/luma`, the runtime
 *    bundle embedded as a file.
 */
import { existsSync } from "node:fs";

const recipeScript = "scripts/gen-grammar-recipe.ts";
if (existsSync(recipeScript)) {
  const gen = Bun.spawnSync(["bun", recipeScript], { stdout: "inherit", stderr: "inherit" });
  if (gen.exitCode !== 0) {
    console.error("build: generating the grammar recipe failed");
    process.exit(1);
  }
}

const runtimeBundle = await Bun.build({
  entrypoints: ["src/cli/main.ts"],
  target: "bun",
  minify: true,
  format: "esm",
  sourcemap: "none",
  plugins: [
    {
      name: "runtime-bundle-stub",
      setup(build) {
        build.onResolve({ filter: /luma-runtime\.js$/ }, (args) => ({ path: args.path, namespace: "luma-runtime-stub" }));
        build.onLoad({ filter: /.*/, namespace: "luma-runtime-stub" }, () => ({ contents: `export default "";`, loader: "js" }));
      },
    },
  ],
});
if (!runtimeBundle.success || runtimeBundle.outputs.length !== 1) {
  for (const log of runtimeBundle.logs) console.error(log);
  console.error("build: bundling the agent runtime failed");
  process.exit(1);
}
await Bun.write("dist/luma-runtime.js", runtimeBundle.outputs[0]);

const result = await Bun.build({
  entrypoints: ["src/cli/main.ts"],
  target: "bun",
  minify: true,
  bytecode: true,
  format: "esm",
  sourcemap: "none",
  compile: { outfile: "dist/luma" },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log("built dist/luma");

/**
 * `bun run build` → `dist/luma`, one standalone executable (Bun runtime included).
 *
 * 1. Regenerate the grammar recipe from grammar.ohm, so the binary never compiles the
 *    grammar from source at run time (120–160 ms per process otherwise).
 * 2. Bundle src/cli/main.ts with bytecode (faster start) and minification.
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

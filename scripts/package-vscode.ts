/**
 * `bun run package:vscode`: the VS Code extension (editors/vscode/) as
 * `dist/luma-vscode.vsix`. The client is bundled into one file (`vscode-languageclient`
 * included, `vscode` left to the editor) so the package needs no node_modules, then
 * `@vscode/vsce package` writes the .vsix — offline; nothing is published.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const extension = join(root, "editors/vscode");
const out = resolve(root, process.argv[2] ?? "dist/luma-vscode.vsix");

const built = await Bun.build({
  entrypoints: [join(extension, "src/extension.ts")],
  outdir: join(extension, "out"),
  target: "node",
  format: "cjs",
  external: ["vscode"],
  minify: true,
});
if (!built.success) {
  console.error(built.logs.map(String).join("\n"));
  process.exit(1);
}

mkdirSync(resolve(out, ".."), { recursive: true });
const vsce = Bun.spawnSync(
  [join(root, "node_modules/.bin/vsce"), "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "-o", out],
  { cwd: extension, stdout: "inherit", stderr: "inherit" },
);
process.exit(vsce.exitCode ?? 1);

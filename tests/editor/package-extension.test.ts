/**
 * The VS Code extension packages with `@vscode/vsce` (`bun run package:vscode`), offline:
 * the .vsix holds the manifest, grammar, language configuration and the bundled client,
 * whose server command is `luma lsp` with the path from the `luma.path` setting.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../support/luma-binary";

describe("editors/vscode: the packaged extension", () => {
  test("bun run package:vscode writes a .vsix with the grammar, configuration and bundled client", () => {
    const out = join(mkdtempSync(join(tmpdir(), "luma-vsix-")), "luma.vsix");
    const r = Bun.spawnSync(["bun", "scripts/package-vscode.ts", out], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
    expect(r.exitCode).toBe(0);
    const list = Bun.spawnSync(["unzip", "-l", out], { stdout: "pipe" }).stdout.toString();
    for (const file of [
      "extension/package.json",
      "extension/syntaxes/luma.tmLanguage.json",
      "extension/language-configuration.json",
      "extension/out/extension.js",
      "extension.vsixmanifest",
    ]) expect(list).toContain(file);
    expect(list).not.toContain("extension/src/");
    const client = Bun.spawnSync(["unzip", "-p", out, "extension/out/extension.js"], { stdout: "pipe" }).stdout.toString();
    // vscode-languageclient is bundled; `vscode` is the editor's.
    expect(client).toContain('require("vscode")');
    expect(client).toContain('"lsp"');
    expect(client).not.toMatch(/require\("vscode-languageclient/);
  }, 120_000);

  test("the manifest asks for the VS Code the bundled language client needs (its own engines.vscode)", () => {
    // On a VS Code older than the client needs, the server fails with a misleading "set luma.path".
    const manifest = JSON.parse(readFileSync(join(REPO, "editors/vscode/package.json"), "utf8"));
    const client = JSON.parse(readFileSync(join(REPO, "node_modules/vscode-languageclient/package.json"), "utf8"));
    const least = (range: string) => range.replace(/^[\^~>=]+/, "").split(".").map(Number);
    const [ours, needed] = [least(manifest.engines.vscode), least(client.engines.vscode)];
    expect(ours[0] * 1e6 + ours[1] * 1e3 + ours[2]).toBeGreaterThanOrEqual(needed[0] * 1e6 + needed[1] * 1e3 + needed[2]);
  });

  test("the manifest declares .luma, the grammar and the luma.path setting", () => {
    const manifest = JSON.parse(readFileSync(join(REPO, "editors/vscode/package.json"), "utf8"));
    expect(manifest.contributes.languages[0].extensions).toEqual([".luma"]);
    expect(manifest.contributes.grammars[0].scopeName).toBe("source.luma");
    expect(manifest.contributes.configuration.properties["luma.path"].default).toBe("luma");
    const config = JSON.parse(readFileSync(join(REPO, "editors/vscode/language-configuration.json"), "utf8"));
    expect(config.comments).toEqual({ lineComment: "//", blockComment: ["/*", "*/"] });
    expect(config.brackets).toContainEqual(["{", "}"]);
  });
});

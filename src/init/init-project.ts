/**
 * `luma init [DIR]`: scaffolds a project that runs and tests offline at once (templates/,
 * embedded in the binary as text). `tools.generated.d.ts` is not a template: it is generated
 * from the main.luma template by the type generator itself, so it can never drift from it; nor
 * is `luma.d.ts`, the types of the `"luma"` module tools.ts imports (typegen/luma-module-declaration.ts,
 * held to src/luma-module.ts by a test): with both, the project passes `tsc --strict` as written.
 *
 * Nothing is ever overwritten: DIR must be missing or empty, and every file is created with
 * `wx` (exclusive), so a file that appears meanwhile makes init stop instead of replacing it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { startupError } from "../diagnostics/luma-error";
import { parse } from "../syntax/parse";
import { generateToolTypes } from "../typegen/generate-tool-types";
import { LUMA_MODULE_DECLARATION, LUMA_MODULE_DECLARATION_FILE } from "../typegen/luma-module-declaration";
import mainLuma from "./templates/main.luma.txt" with { type: "text" };
import mainTest from "./templates/main.test.luma.txt" with { type: "text" };
import toolsTs from "./templates/tools.ts.txt" with { type: "text" };
import config from "./templates/luma.config.json.txt" with { type: "text" };
import tsconfig from "./templates/tsconfig.json.txt" with { type: "text" };
import gitignore from "./templates/gitignore.txt" with { type: "text" };
import readme from "./templates/README.md.txt" with { type: "text" };
import cassette from "./templates/cassette.jsonl.txt" with { type: "text" };

/** The project's files, in the order they are written. */
export function projectFiles(): [path: string, text: string][] {
  const parsed = parse(mainLuma, "main.luma");
  if (!parsed.program) throw new Error("internal: the main.luma template does not parse");
  return [
    ["main.luma", mainLuma],
    ["main.test.luma", mainTest],
    ["tools.ts", toolsTs],
    ["tools.generated.d.ts", generateToolTypes(parsed.program)],
    [LUMA_MODULE_DECLARATION_FILE, LUMA_MODULE_DECLARATION],
    ["luma.config.json", config],
    ["cassettes/main.jsonl", cassette],
    ["tsconfig.json", tsconfig],
    [".gitignore", gitignore],
    ["README.md", readme],
  ];
}

/** Writes the project into `dir` (against `cwd`); returns the lines to print. */
export function initProject(dir: string, cwd: string): string[] {
  const root = resolve(cwd, dir);
  if (existsSync(root) && readdirSync(root).length > 0) {
    throw startupError(`luma init: ${dir} is not empty; nothing was written (luma init never overwrites a file)`, { catalogCode: "E0650" });
  }
  const written: string[] = [];
  for (const [path, text] of projectFiles()) {
    const full = join(root, path);
    try {
      mkdirSync(join(full, ".."), { recursive: true });
      writeFileSync(full, text, { flag: "wx" });
    } catch (e) {
      const done = written.length > 0 ? ` (written before: ${written.join(", ")})` : "";
      throw startupError(`luma init: cannot write ${join(dir, path)}: ${(e as Error).message}${done}`, { catalogCode: "E0651" });
    }
    written.push(path);
  }
  const shown = relative(cwd, root) || ".";
  const cd = shown === "." ? "" : `cd ${shown} && `;
  return [
    `created ${shown}: ${written.join(", ")}`,
    `next: ${cd}luma main.luma && luma test`,
  ];
}

/**
 * The strict checks one file gets before any of it runs (spec §10): the lint on its raw text,
 * a verdict for every specifier its code names, and its import attributes (only `type:
 * "json"` on a `.json` file: import-attributes.ts). Returns every violation, not the first,
 * and the project files it loads (for the checks of in-process ES module graphs).
 *
 * Specifiers are read from the transpiled text — what actually runs: comments and TypeScript
 * `import type` are gone, string folding is done (`require("f" + "s")` is already `"fs"`
 * there) — and each is pointed back at the raw text for its line:col.
 */
import { extname } from "node:path";
import { lineColOf } from "../../diagnostics/source-position";
import { lintModuleText } from "./lint-module-text";
import type { PolicyRule, PolicyViolation } from "./policy-violation";
import { judgeSpecifier, type JudgeScope } from "./specifier-judgement";
import { specifierSites, type SpecifierSite } from "../module-loading/specifier-sites";
import { decodeEscapes } from "./unicode-escapes";
import { refusedAttributes } from "./import-attributes";

export interface FileToCheck {
  /** Real path. */
  file: string;
  raw: string;
  transpiled: string;
  /**
   * Loaded by Bun's own loader (an ES module under strict): nothing can intercept its
   * `require`/`import()` at call time, so a specifier that is not a literal is refused now.
   */
  inProcess: boolean;
  /** How violations name a helper file; absent for the tool module itself. */
  label?: string;
  /** Reached through a package import. */
  asPackage?: boolean;
}

/** A file this file loads, and whether it is package code. */
export interface ReachedFile {
  path: string;
  asPackage: boolean;
}

/** File types a strict module may load from the project. A native addon (`.node`) is not one. */
export const LOADABLE_EXTENSIONS: ReadonlySet<string> = new Set([".ts", ".mts", ".js", ".cjs", ".mjs", ".json"]);

export interface FileCheck {
  violations: PolicyViolation[];
  /** Project files (packages included) this file loads by a literal specifier (real paths). */
  files: ReachedFile[];
}

export function checkFile(scope: JudgeScope, f: FileToCheck): FileCheck {
  const asPackage = f.asPackage ?? false;
  const violations = lintModuleText(f.raw, scope.policy, f.label, { inProcess: f.inProcess, asPackage });
  const files: ReachedFile[] = [];
  const locate = rawLocator(f.raw);
  const add = (site: SpecifierSite, rule: PolicyRule, message: string) => {
    const { line, col } = locate(site);
    violations.push({ rule, message, line, col, file: f.label });
  };

  for (const site of specifierSites(f.transpiled)) {
    if (site.kind === "require-value") {
      if (f.inProcess) add(site, "computed_specifier", `uses 'require' other than as require("literal") (an in-process ES module's require cannot be checked when it runs)`);
      continue;
    }
    if (site.kind === "import" && scope.rules?.allow && !asPackage) {
      add(site, "dependencies", `uses dynamic import() (forbidden when the manifest lists "dependencies")`);
      continue;
    }
    if (site.specifier === undefined) {
      if (f.inProcess) add(site, "computed_specifier", `computes the specifier of ${site.kind === "import" ? "import()" : "require()"} (an in-process ES module's specifiers must be literals under strict)`);
      continue;
    }
    const verdict = judgeSpecifier(scope, site.specifier, f.file, asPackage, site.kind === "require" ? "require" : "import");
    if (!verdict.ok) add(site, verdict.rule, verdict.message);
    else if (verdict.target.kind === "file" || verdict.target.kind === "package") {
      if (!LOADABLE_EXTENSIONS.has(extname(verdict.target.path))) {
        add(site, "file_type", `loads '${verdict.target.path}', which is not a JavaScript, TypeScript or JSON file`);
      } else files.push({ path: verdict.target.path, asPackage: asPackage || verdict.target.kind === "package" });
    }
  }
  violations.push(...attributeViolations(f.raw, f.label));
  violations.sort((a, b) => a.line - b.line || a.col - b.col);
  return { violations, files };
}

/** Import attributes that would load a file other than by its extension (import-attributes.ts). */
function attributeViolations(raw: string, label: string | undefined): PolicyViolation[] {
  const { text, rawOffsets } = decodeEscapes(raw);
  return refusedAttributes(text).map((use) => {
    const { line, col } = lineColOf(raw, rawOffsets[use.offset]);
    return { rule: "import_attributes", message: use.message, line, col, file: label };
  });
}

/**
 * Points a site of the transpiled text at the raw text: the same kind of site with the same
 * literal first, else the next unused site of that kind, else 1:1 (a site the transpiler
 * introduced).
 */
function rawLocator(raw: string): (site: SpecifierSite) => { line: number; col: number } {
  const { text, rawOffsets } = decodeEscapes(raw);
  const rawSites = specifierSites(text);
  const used = new Set<SpecifierSite>();
  const sameKind = (a: SpecifierSite, b: SpecifierSite) => a.kind === b.kind || (a.kind !== "require-value" && b.kind !== "require-value" && a.kind !== "static" && b.kind !== "static");
  return (site) => {
    const match =
      rawSites.find((r) => !used.has(r) && r.kind === site.kind && r.specifier !== undefined && r.specifier === site.specifier) ??
      rawSites.find((r) => !used.has(r) && r.kind === site.kind && r.specifier === undefined) ??
      rawSites.find((r) => !used.has(r) && sameKind(r, site));
    if (!match) return { line: 1, col: 1 };
    used.add(match);
    const { line, col } = lineColOf(raw, rawOffsets[match.offset]);
    return { line, col };
  };
}

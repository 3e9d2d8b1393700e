/**
 * ARCHITECTURE.md § Where things go, held: a new AST kind does not compile until every
 * switch over AST kinds handles it. The source of src/ is read as text: every `switch`
 * whose cases name a kind of `syntax/ast.ts` (a statement, expression, declaration, type or
 * config value) must end in `default: … assertNever(…)` — no `default:` that swallows kinds
 * in silence (a site that acts on only some kinds lists the others in grouped cases).
 * schema/ reads the AST as types only, so it cannot import `assertNever`; its switches
 * write the same check by hand (`const unhandled: never = …`), and only there is that
 * allowed. The switch's extent is read from the layout (its closing brace sits at its own
 * indentation), which the formatter keeps.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "./support/luma-binary";

const SRC = join(REPO, "src");

/** Folders that may not import `assertNever` (types-only readers of the AST): the by-hand form. */
const BY_HAND_ALLOWED = new Set(["schema"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

/** Every `kind: "X"` the AST declares (unions such as `"Break" | "Continue"` included). */
function astKinds(): Set<string> {
  const text = readFileSync(join(SRC, "syntax/ast.ts"), "utf8");
  const kinds = new Set<string>();
  for (const m of text.matchAll(/kind: ((?:"[A-Za-z]+"(?: \| )?)+)/g)) {
    for (const k of m[1].matchAll(/"([A-Za-z]+)"/g)) kinds.add(k[1]);
  }
  return kinds;
}

interface SwitchSite {
  where: string;
  /** The switch's text, from `switch (` to its closing brace. */
  body: string;
  cases: string[];
}

function switchSites(): SwitchSite[] {
  const sites: SwitchSite[] = [];
  for (const file of sourceFiles(SRC)) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      const m = /^(\s*)(?:.*\s)?switch \(.*\) \{$/.exec(line);
      if (!m) return;
      const indent = m[1];
      let end = i + 1;
      while (end < lines.length && lines[end] !== `${indent}}`) end++;
      const body = lines.slice(i, end + 1).join("\n");
      const cases = [...body.matchAll(/^\s*case "([A-Za-z]+)":/gm)].map((c) => c[1]);
      sites.push({ where: `${relative(SRC, file)}:${i + 1}`, body, cases });
    });
  }
  return sites;
}

/** What follows the switch's own `default:` (a nested switch's default is at a deeper indentation). */
function defaultBranch(site: SwitchSite): string | undefined {
  const lines = site.body.split("\n");
  const caseIndent = /^(\s*)/.exec(lines[1] ?? "")?.[1] ?? "";
  const at = lines.findIndex((l) => l === `${caseIndent}default:` || l === `${caseIndent}default: {`);
  return at < 0 ? undefined : lines.slice(at).join("\n");
}

describe("exhaustive AST switches", () => {
  const kinds = astKinds();
  const astSwitches = switchSites().filter((s) => s.cases.some((c) => kinds.has(c)));

  test("the AST's kinds are read (statements, expressions, declarations, types, config values)", () => {
    for (const k of ["Assign", "While", "Call", "DbCall", "Schema", "Query", "Command", "NamedType", "Obj"]) expect(kinds).toContain(k);
  });

  test("the switches over AST kinds are found across the stages", () => {
    const files = new Set(astSwitches.map((s) => s.where.replace(/:\d+$/, "")));
    for (const f of [
      "language/ast-children.ts",
      "check/types/narrowing.ts",
      "runtime/interpreter/exec-sync.ts",
      "runtime/interpreter/eval-async.ts",
      "runtime/interpreter/scope-analysis.ts",
      "lsp/document-index.ts",
      "format/print-statements.ts",
      "typegen/render-type.ts",
    ]) expect(files).toContain(f);
  });

  test("every switch over AST kinds ends in assertNever: a new kind fails to compile at each", () => {
    const bad = astSwitches
      .filter((s) => {
        const branch = defaultBranch(s);
        if (branch === undefined) return true;
        if (/\bassertNever\(/.test(branch)) return false;
        return !(BY_HAND_ALLOWED.has(s.where.split("/")[0]) && /: never = /.test(branch));
      })
      .map((s) => s.where);
    expect(bad).toEqual([]);
  });

  test("assertNever is the switch's own default, not a kind's case: no kind is swallowed before it", () => {
    const swallowing = astSwitches
      .filter((s) => {
        const branch = defaultBranch(s) ?? "";
        // The default is the last branch: no `case` of this switch after it.
        const caseIndent = /^(\s*)/.exec(s.body.split("\n")[1] ?? "")?.[1] ?? "";
        return branch.split("\n").slice(1).some((l) => l.startsWith(`${caseIndent}case `));
      })
      .map((s) => s.where);
    expect(swallowing).toEqual([]);
  });
});
